import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import { loginSchema } from '../../contracts/login';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import type { GraphqlContext } from '../graphql-context';
import { Actor, type ActorView } from '../../graph/identity/types/actor.type';
import { LoginInput } from '../../graph/identity/types/session.input';
import { Allowed } from '../access';

/**
 * Console sign-in and sign-out in GraphQL, the same as POST /console-shared/v1/login and
 * DELETE /console-shared/v1/authentication/session: the session travels in the same cookie.
 * Every `login` field of a request is one attempt: aliases run one after another (mutations
 * are serial) and each is counted by the login service's throttle.
 */
@Resolver()
export class SessionResolver {
  @Allowed('session.login')
  @Mutation(() => Actor, { description: 'Starts a console session (sets the session cookie) and answers who signed in.' })
  async login(@Arg('input', () => LoginInput) input: LoginInput, @Ctx() { services, transport }: GraphqlContext): Promise<ActorView> {
    const session = await services.logins.login(validate(loginSchema, givenArguments(input), 'payload_invalid'), transport.clientAddress);
    transport.setSessionCookie(session.token, session.expiresAt);
    const { user, organization } = session.whoami;
    return { kind: 'user', name: user.name, rights: user.rights, organization };
  }

  @Allowed('session.logout')
  @Mutation(() => Boolean, { description: 'Ends the console session of this request and clears its cookie.' })
  async logout(@Ctx() { actor, services, transport }: GraphqlContext): Promise<boolean> {
    await services.sessions.revoke(actor);
    transport.setSessionCookie(null);
    return true;
  }
}
