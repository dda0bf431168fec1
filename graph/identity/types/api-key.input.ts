import { Field, ID, InputType } from 'type-graphql';

/* The GraphQL shape of an API key's body; the rules are apiKeyCreateSchema's and apiKeyUpdateSchema's (contracts/api-key.ts). */

@InputType('ApiKeyCreateInput')
export class ApiKeyCreateInput {
  @Field(() => ID)
  organizationHashId!: string;

  @Field(() => String, { description: '1 to 100 characters.' })
  name!: string;

  @Field(() => [String], { nullable: true, description: 'At most 50 IPv4 CIDR ranges the key may be used from; empty or not given: anywhere.' })
  ipRanges?: string[] | null;

  @Field(() => String, { nullable: true, description: 'A PEM public key; the client may then sign short-lived JWTs instead of sending the secret.' })
  publicKey?: string | null;
}

@InputType('ApiKeyUpdateInput', { description: 'Only the fields given change; publicKey null removes the public key.' })
export class ApiKeyUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => [String], { nullable: true })
  ipRanges?: string[];

  @Field(() => String, { nullable: true })
  publicKey?: string | null;
}
