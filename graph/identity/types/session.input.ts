import { Field, InputType } from 'type-graphql';

/** The body of `login`; its rules are loginSchema's (contracts/login.ts), as for POST /console-shared/v1/login. */
@InputType('LoginInput')
export class LoginInput {
  @Field(() => String)
  email!: string;

  @Field(() => String)
  password!: string;

  @Field(() => String, { nullable: true, description: 'The current two-factor code, when two-factor is on.' })
  code?: string | null;

  @Field(() => String, { nullable: true, description: 'A recovery code instead of the two-factor code; each works once.' })
  recoveryCode?: string | null;
}
