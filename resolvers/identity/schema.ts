import type { Logger } from 'pino';
import { ApiKeyResolver } from './api-key.resolver';
import { AuditLogResolver } from './audit-log.resolver';
import { MeResolver } from './me.resolver';
import { OrganizationResolver, resolveOrganizationReference } from './organization.resolver';
import { SessionResolver } from './session.resolver';
import { UserInviteResolver } from './user-invite.resolver';
import { resolveUserReference, UserResolver } from './user.resolver';
import { buildSubgraph, type Subgraph } from '../subgraph';

/** The identity subgraph: organisations, users, invites, API keys, sign-in, the actor (`me`) and the audit log. */
export function buildIdentitySubgraph(log: Logger): Promise<Subgraph> {
  return buildSubgraph(
    {
      name: 'identity',
      resolvers: [OrganizationResolver, MeResolver, SessionResolver, AuditLogResolver, UserResolver, UserInviteResolver, ApiKeyResolver],
      entities: { Organization: resolveOrganizationReference, User: resolveUserReference },
    },
    log,
  );
}
