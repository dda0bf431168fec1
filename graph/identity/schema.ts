import type { Logger } from 'pino';
import { ApiKeyResolver } from '../../resolvers/identity/api-key.resolver';
import { AuditLogResolver } from '../../resolvers/identity/audit-log.resolver';
import { MeResolver } from '../../resolvers/identity/me.resolver';
import { OrganizationResolver, resolveOrganizationReference } from '../../resolvers/identity/organization.resolver';
import { SessionResolver } from '../../resolvers/identity/session.resolver';
import { UserInviteResolver } from '../../resolvers/identity/user-invite.resolver';
import { resolveUserReference, UserResolver } from '../../resolvers/identity/user.resolver';
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
