import { Arg, Args, Ctx, Float, ID, Mutation, Query, Resolver } from 'type-graphql';
import {
  messageDestinationCreateSchema,
  messageDestinationListQuerySchema,
  messageDestinationResumeSchema,
  messageDestinationUpdateSchema,
  type MessageDestinationView,
} from '../../contracts/forwarding';
import type { Page } from '../../contracts/pagination';
import { validate } from '../../contracts/validation';
import { givenArguments } from '../../graph/common/graphql-args';
import { MessageDestinationListArgs } from '../../graph/forwarding/types/message-destination.args';
import { MessageDestinationCreateInput, MessageDestinationUpdateInput } from '../../graph/forwarding/types/message-destination.input';
import { MessageDestination, MessageDestinationPage } from '../../graph/forwarding/types/message-destination.type';
import type { GraphqlContext } from '../graphql-context';
import { Allowed } from '../access';

/**
 * Message destinations in GraphQL, as /console-admin/v1/message-destination: employees read,
 * Ops and Developer write, only Developer resumes; customers list their organisation's, as GET
 * /console/v1/message-destination.
 */
@Resolver(() => MessageDestination)
export class MessageDestinationResolver {
  @Allowed('messageDestination.read')
  @Query(() => MessageDestination)
  messageDestination(@Arg('hashId', () => ID) hashId: string, @Ctx() { actor, services }: GraphqlContext): Promise<MessageDestinationView> {
    return services.messageDestinations.get(actor, hashId);
  }

  @Allowed('messageDestination.list', 'messageDestination.listOwn')
  @Query(() => MessageDestinationPage, { description: "Destinations newest first; a customer sees only their organisation's." })
  messageDestinations(
    @Args(() => MessageDestinationListArgs) args: MessageDestinationListArgs,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<Page<MessageDestinationView>> {
    return services.messageDestinations.list(actor, validate(messageDestinationListQuerySchema, givenArguments(args), 'query_invalid'));
  }

  @Allowed('messageDestination.create')
  @Mutation(() => MessageDestination)
  createMessageDestination(
    @Arg('input', () => MessageDestinationCreateInput) input: MessageDestinationCreateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<MessageDestinationView> {
    return services.messageDestinations.create(actor, validate(messageDestinationCreateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('messageDestination.update')
  @Mutation(() => MessageDestination, { description: 'Changes what is given; the type never changes (changing_type), a secret left out is kept.' })
  updateMessageDestination(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('input', () => MessageDestinationUpdateInput) input: MessageDestinationUpdateInput,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<MessageDestinationView> {
    return services.messageDestinations.update(actor, hashId, validate(messageDestinationUpdateSchema, givenArguments(input), 'payload_invalid'));
  }

  @Allowed('messageDestination.resume')
  @Mutation(() => MessageDestination, { description: 'Delivery goes on from where it stopped, or from offset, a stream position the health shows (replay).' })
  resumeMessageDestination(
    @Arg('hashId', () => ID) hashId: string,
    @Arg('offset', () => Float, { nullable: true }) offset: number | null | undefined,
    @Ctx() { actor, services }: GraphqlContext,
  ): Promise<MessageDestinationView> {
    return services.messageDestinations.resume(actor, hashId, validate(messageDestinationResumeSchema, givenArguments({ offset }), 'payload_invalid'));
  }
}
