import type { Knex } from 'knex';
import type { HashIds } from './common/hash-ids';
import { AuditLogService } from './identity/services/audit-log.service';
import { OrganizationService } from './identity/services/organization.service';
import { SessionService } from './identity/services/session.service';
import { UserService } from './identity/services/user.service';

/** Everything a service needs from outside: the database and the install's hash ids. */
export interface Dependencies {
  db: Knex;
  hashIds: HashIds;
  /** Signs console session tokens. */
  sessionSecret: string;
}

/** Every service, built once per process and shared by REST routes, resolvers, the hub and the CLI. */
export interface Services {
  organizations: OrganizationService;
  auditLog: AuditLogService;
  users: UserService;
  sessions: SessionService;
}

export function createServices({ db, hashIds, sessionSecret }: Dependencies): Services {
  const organizations = new OrganizationService(db, hashIds);
  return {
    organizations,
    auditLog: new AuditLogService(db, hashIds),
    users: new UserService(db, hashIds),
    sessions: new SessionService(db, hashIds, organizations, sessionSecret),
  };
}
