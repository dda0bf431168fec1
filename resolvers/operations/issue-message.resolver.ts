import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import { issueMessageUpdateSchema, type IssueMessageView } from '../../contracts/issue';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { IssueMessageInput } from '../../graph/operations/types/issue.input';
import { IssueMessage } from '../../graph/operations/types/issue-message.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';

/** Issue messages in GraphQL, as POST /console-admin/v1/issue-messages (staff) and POST /console/v1/issue/{issueHashId}/message (customers). */
@Resolver(() => IssueMessage)
export class IssueMessageResolver {
  @Allowed('issueMessage.create', 'issueMessage.createVisible')
  @Mutation(() => IssueMessage, {
    description: 'Posts a message. Staff: internal or not, mailed to to and cc, assigning the issue. Customers: the message and their uploads only.',
  })
  addIssueMessage(@Arg('input', () => IssueMessageInput) input: IssueMessageInput, @Ctx() { actor, services }: GraphqlContext): Promise<IssueMessageView> {
    return services.issues.postAny(actor, givenArguments(input));
  }

  @Allowed('issueMessage.update')
  @Mutation(() => IssueMessage, { description: 'Edits an internal message (only_internal_message_updates for any other).' })
  updateIssueMessage(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('message', () => String) message: string,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<IssueMessageView> {
    return services.issues.updateMessage(actor, hashId, validate(issueMessageUpdateSchema, { message }, 'payload_invalid'));
  }
}
