import { Args, Ctx, Query, Resolver } from 'type-graphql';
import { auditLogQuerySchema, type AuditLogRowView } from '../../contracts/audit-log';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import type { GraphqlContext } from '../graphql-context';
import { AuditLogArgs } from '../../graph/identity/types/audit-log.args';
import { AuditLogPage, AuditLogRow } from '../../graph/identity/types/audit-log.type';
import { Allowed } from '../access';

@Resolver(() => AuditLogRow)
export class AuditLogResolver {
  @Allowed('auditLog.list')
  @Query(() => AuditLogPage, { description: 'The audit log, newest first (staff only).' })
  auditLog(@Args(() => AuditLogArgs) args: AuditLogArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<AuditLogRowView>> {
    const query = validate(auditLogQuerySchema, givenArguments(args), 'query_invalid');
    return services.auditLog.list(actor, query);
  }
}
