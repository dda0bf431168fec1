import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { PublishBatchCommand, SNSClient, type PublishBatchRequestEntry } from '@aws-sdk/client-sns';
import { GridportError } from '../../../contracts/errors';
import { hostsOf, type ForwardedMessage } from '../../../contracts/forwarding';
import { guardedLookup, resolveTarget } from './address-guard';
import type { Deliverer, DelivererFactory } from './deliverer';

/** PublishBatch takes at most ten entries. */
const entriesPerCall = 10;
const connectionTimeoutMs = 10_000;
const requestTimeoutMs = 30_000;

/** The message's id (and, on a .fifo topic, its deduplication id): the same for a message delivered again. */
export function snsMessageId(message: ForwardedMessage): string {
  return `${message.position}.${message.messageType}.${message.asset?.index ?? 'device'}`;
}

function entryOf(message: ForwardedMessage, index: number, fifo: boolean): PublishBatchRequestEntry {
  return {
    Id: `m${index}`,
    Message: JSON.stringify(message),
    MessageAttributes: {
      messageType: { DataType: 'String', StringValue: message.messageType },
      version: { DataType: 'Number', StringValue: String(message.version) },
      messageId: { DataType: 'String', StringValue: snsMessageId(message) },
    },
    // A FIFO topic keeps each group's order and drops a repeated deduplication id for five minutes.
    ...(fifo ? { MessageGroupId: message.device.hashId, MessageDeduplicationId: snsMessageId(message) } : {}),
  };
}

/**
 * Amazon SNS with the AWS SDK's SNS client: PublishBatch, ten messages a call, in order; the
 * message is the ForwardedMessage JSON with messageType, version and messageId as message
 * attributes. On a .fifo topic the device is the message group and the message id the
 * deduplication id. The SDK's sockets resolve names through the address guard, and the
 * endpoint's host is checked before each batch (an IP literal never reaches a lookup).
 */
export const snsDeliverer: DelivererFactory<'aws-simple-notification-service'> = (settings, context) => {
  const fifo = settings.topicArn.endsWith('.fifo');
  const agentOptions = { keepAlive: true, lookup: guardedLookup(context.policy) };
  const httpAgent = new HttpAgent(agentOptions);
  const httpsAgent = new HttpsAgent(agentOptions);
  const client = new SNSClient({
    region: settings.region,
    endpoint: settings.endpoint,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    maxAttempts: 2,
    requestHandler: { httpAgent, httpsAgent, connectionTimeout: connectionTimeoutMs, requestTimeout: requestTimeoutMs },
  });
  const [host = ''] = hostsOf('aws-simple-notification-service', settings);

  async function publish(messages: readonly ForwardedMessage[]): Promise<void> {
    await resolveTarget(host, context.policy);
    for (let start = 0; start < messages.length; start += entriesPerCall) {
      const chunk = messages.slice(start, start + entriesPerCall);
      const answer = await client.send(
        new PublishBatchCommand({ TopicArn: settings.topicArn, PublishBatchRequestEntries: chunk.map((message, index) => entryOf(message, index, fifo)) }),
      );
      const failed = answer.Failed ?? [];
      const [first] = failed;
      if (first) {
        throw new Error(`${failed.length} of ${chunk.length} messages were refused: ${first.Code ?? 'error'}: ${first.Message ?? 'no reason given'}`);
      }
    }
  }

  const deliverer: Deliverer = {
    async deliver(messages) {
      if (messages.length === 0) {
        return;
      }
      try {
        await publish(messages);
      } catch (error) {
        // The SDK keeps no connection state to reset: its agents open new sockets as needed.
        const cause = (error as { cause?: unknown }).cause;
        const refused = [error, cause].find((candidate) => candidate instanceof GridportError);
        if (refused) {
          throw refused;
        }
        const reason = error instanceof Error ? `${error.name === 'Error' ? '' : `${error.name}: `}${error.message}` : String(error);
        throw new Error(`aws-simple-notification-service ${settings.topicArn}: ${reason}`);
      }
    },
    async close() {
      client.destroy();
      httpAgent.destroy();
      httpsAgent.destroy();
      return Promise.resolve();
    },
  };
  return deliverer;
};
