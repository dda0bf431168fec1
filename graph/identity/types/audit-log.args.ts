import { ArgsType, Field, ID, Int } from 'type-graphql';
import type { AuditObjectType } from '../../../contracts/audit-log';
import { AuditObjectTypeEnum } from './audit-log.enum';

/** The arguments of `auditLog`; their rules are auditLogQuerySchema's. */
@ArgsType()
export class AuditLogArgs {
  @Field(() => AuditObjectTypeEnum, { nullable: true })
  objectType?: AuditObjectType | null;

  @Field(() => ID, { nullable: true, description: 'Needs objectType.' })
  objectHashId?: string | null;

  @Field(() => String, { nullable: true, description: 'The rows of one write (a UUID).' })
  transactionIdentifier?: string | null;

  @Field(() => String, { nullable: true, description: 'The nextPageOffset of the page before.' })
  offset?: string | null;

  @Field(() => Int, { nullable: true, description: '1 to 500; 50 when not given.' })
  rowsPerPage?: number | null;
}
