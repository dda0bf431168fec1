import { GraphQLJSON } from 'graphql-scalars';
import { GraphQLDateTimeISO } from '../../common/graphql-date-time';
import { Field, ID, ObjectType } from 'type-graphql';
import type { AuditChangeType, AuditLogRowView, AuditObjectType, DiffEntry } from '../../../contracts/audit-log';
import type { NamedReference } from '../../../contracts/references';
import { pageOf } from '../../common/graphql-page';
import { AuditChangeTypeEnum, AuditObjectTypeEnum } from './audit-log.enum';

@ObjectType('AuditLogUser', { description: 'The user who made a change.' })
export class AuditLogUser implements NamedReference {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('AuditLogRow', { description: 'One change to one object.' })
export class AuditLogRow implements AuditLogRowView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String, { description: 'Shared by every row one write produced.' })
  transactionIdentifier!: string;

  @Field(() => ID)
  objectHashId!: string;

  @Field(() => AuditObjectTypeEnum)
  objectType!: AuditObjectType;

  @Field(() => AuditChangeTypeEnum)
  changeType!: AuditChangeType;

  @Field(() => [GraphQLJSON], {
    description: 'The fields that changed, each { type, name, ... } by what it holds (oldValue and newValue for plain values; none for hidden fields).',
  })
  diff!: DiffEntry[];

  @Field(() => AuditLogUser, { nullable: true, description: 'Null when Gridport itself, an API key or the command line made the change.' })
  user!: AuditLogUser | null;

  @Field(() => String)
  actorName!: string;

  @Field(() => GraphQLDateTimeISO)
  createdAt!: string;
}

export const AuditLogPage = pageOf<AuditLogRowView>(AuditLogRow, 'AuditLogPage', {
  description: 'A page of audit log rows, newest first.',
  nextPageOffset: 'The offset of the next page; null on the last page.',
});
