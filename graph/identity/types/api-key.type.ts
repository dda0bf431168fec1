import { Field, ID, ObjectType } from 'type-graphql';
import type { ApiKeyRowView, ApiKeySecretView, ApiKeyUserView, ApiKeyView } from '../../../contracts/api-key';
import type { Right } from '../../../contracts/rights';
import { nextPageOffsetDescription, pageOf } from '../../common/graphql-page';

@ObjectType('ApiKeyUser', { description: 'The user who created an API key.' })
export class ApiKeyUser implements ApiKeyUserView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  email!: string;

  @Field(() => String)
  name!: string;
}

@ObjectType('ApiKeyDetail', { description: 'An API key as GET /v1/api-key/{hashId} gives it; its secret is shown only when it is created or reset.' })
export class ApiKeyDetail implements ApiKeyView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  name!: string;

  @Field(() => [String], { description: 'IPv4 CIDR ranges the key may be used from; empty: anywhere.' })
  ipRanges!: string[];

  @Field(() => [String])
  rights!: Right[];

  @Field(() => ApiKeyUser, { nullable: true })
  user!: ApiKeyUser | null;
}

@ObjectType('ApiKey', { description: 'An API key in a list, with its organisation; its secret is shown only when it is created or reset.' })
export class ApiKey extends ApiKeyDetail implements ApiKeyRowView {
  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => String)
  organizationName!: string;
}

export const ApiKeyPage = pageOf<ApiKeyRowView>(ApiKey, 'ApiKeyPage', { nextPageOffset: nextPageOffsetDescription });

@ObjectType('ApiKeySecret', { description: 'A key with its secret, shown this once: send it as Authorization: Bearer <apiKey>.' })
export class ApiKeySecret implements ApiKeySecretView {
  @Field(() => ID)
  hashId!: string;

  @Field(() => String)
  apiKey!: string;
}
