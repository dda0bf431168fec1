import { Arg, Args, Ctx, ID, Query, Resolver } from 'type-graphql';
import { apiKeyListQuerySchema, type ApiKeyRowView, type ApiKeyView } from '../../contracts/api-key';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import type { GraphqlContext } from '../../graph/graphql-context';
import { ApiKeyListArgs } from '../../graph/identity/types/api-key.args';
import { ApiKey, ApiKeyDetail, ApiKeyPage } from '../../graph/identity/types/api-key.type';

/** API keys in GraphQL, read side; like /v1/api-key, for console sessions of employees. */
@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Query(() => ApiKeyDetail)
  apiKey(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<ApiKeyView> {
    return services.apiKeys.get(actor, hashId);
  }

  @Query(() => ApiKeyPage)
  apiKeys(@Args(() => ApiKeyListArgs) args: ApiKeyListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<ApiKeyRowView>> {
    return services.apiKeys.list(actor, validate(apiKeyListQuerySchema, givenArguments(args), 'query_invalid'));
  }
}
