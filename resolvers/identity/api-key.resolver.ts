import { Arg, Args, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import {
  apiKeyCreateSchema,
  apiKeyListQuerySchema,
  apiKeyUpdateSchema,
  type ApiKeyRowView,
  type ApiKeySecretView,
  type ApiKeyView,
} from '../../contracts/api-key';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import type { GraphqlContext } from '../graphql-context';
import { ApiKeyCreateInput, ApiKeyUpdateInput } from '../../graph/identity/types/api-key.input';
import { ApiKeyListArgs } from '../../graph/identity/types/api-key.args';
import { ApiKey, ApiKeyDetail, ApiKeyPage, ApiKeySecret } from '../../graph/identity/types/api-key.type';
import { Allowed } from '../access';

/**
 * API keys in GraphQL, as /v1/api-key: console sessions only (the service refuses keys
 * managing keys); employees read, Ops and Developer write.
 */
@Resolver(() => ApiKey)
export class ApiKeyResolver {
  @Allowed('apiKey.read')
  @Query(() => ApiKeyDetail)
  apiKey(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<ApiKeyView> {
    return services.apiKeys.get(actor, hashId);
  }

  @Allowed('apiKey.list')
  @Query(() => ApiKeyPage)
  apiKeys(@Args(() => ApiKeyListArgs) args: ApiKeyListArgs, @Ctx() { actor, services }: GraphqlContext): Promise<Page<ApiKeyRowView>> {
    return services.apiKeys.list(actor, validate(apiKeyListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('apiKey.create')
  @Mutation(() => ApiKeySecret, { description: 'Creates a key; its secret is in the answer and nowhere else.' })
  createApiKey(@Arg('input', () => ApiKeyCreateInput) input: ApiKeyCreateInput, @Ctx() { actor, services }: GraphqlContext): Promise<ApiKeySecretView> {
    return services.apiKeys.create(actor, validate(apiKeyCreateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('apiKey.reset')
  @Mutation(() => ApiKeySecret, { description: 'Gives the key a new secret; the old one stops working at once.' })
  async resetApiKey(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<ApiKeySecretView> {
    const { apiKey } = await services.apiKeys.reset(actor, hashId);
    return { hashId, apiKey };
  }

  @Allowed('apiKey.update')
  @Mutation(() => Boolean)
  async updateApiKey(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => ApiKeyUpdateInput) input: ApiKeyUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<boolean> {
    await services.apiKeys.update(actor, hashId, validate(apiKeyUpdateSchema, { ...input }, 'payload_invalid'));
    return true;
  }

  @Allowed('apiKey.delete')
  @Mutation(() => Boolean)
  async deleteApiKey(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<boolean> {
    await services.apiKeys.delete(actor, hashId);
    return true;
  }
}
