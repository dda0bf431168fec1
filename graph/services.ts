import type { Knex } from 'knex';
import type { HashIds } from './common/hash-ids';
import { AuditLogService } from './identity/services/audit-log.service';
import { OrganizationService } from './identity/services/organization.service';

/** Everything a service needs from outside: the database and the install's hash ids. */
export interface Dependencies {
  db: Knex;
  hashIds: HashIds;
}

/** Every service, built once per process and shared by REST routes, resolvers, the hub and the CLI. */
export interface Services {
  organizations: OrganizationService;
  auditLog: AuditLogService;
}

export function createServices({ db, hashIds }: Dependencies): Services {
  return {
    organizations: new OrganizationService(db, hashIds),
    auditLog: new AuditLogService(db, hashIds),
  };
}
