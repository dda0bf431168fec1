import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { ForwardedMessage } from '../../contracts/forwarding';
import { receivedOf, type ForwardingPeer, type PeerStarter, type ReceivedMessage } from './peer';

const namespace = 'http://sns.amazonaws.com/doc/2010-03-31/';

/** A message as the fake SNS took it. */
export interface SnsPublished {
  topicArn: string;
  message: string;
  attributes: Record<string, { dataType: string; value: string }>;
  groupId?: string;
  deduplicationId?: string;
}

export interface SnsPeer extends ForwardingPeer {
  published(): SnsPublished[];
  /** Requests that reached the endpoint, signed well or not. */
  requests(): number;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * Checks an AWS Signature Version 4 `Authorization` header against the known keys
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html);
 * null when it holds, else the error code AWS answers with.
 */
function signatureProblem(request: IncomingMessage, body: Buffer, keys: Record<string, string>): string | null {
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
    request.headers.authorization ?? '',
  );
  if (!match) {
    return 'MissingAuthenticationToken';
  }
  const [, accessKeyId = '', date = '', region = '', service = '', signedHeaders = '', signature = ''] = match;
  const secret = keys[accessKeyId];
  if (secret === undefined) {
    return 'InvalidClientTokenId';
  }
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const url = new URL(request.url ?? '/', 'http://peer');
  const query = [...url.searchParams.entries()]
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .sort()
    .join('&');
  const headerLines = signedHeaders.split(';').map(
    (name) =>
      `${name}:${String(request.headers[name] ?? '')
        .trim()
        .replace(/\s+/g, ' ')}\n`,
  );
  const payloadHash = typeof request.headers['x-amz-content-sha256'] === 'string' ? request.headers['x-amz-content-sha256'] : sha256(body);
  const canonical = [request.method, url.pathname, query, headerLines.join(''), signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
  const expected = Buffer.from(createHmac('sha256', key).update(toSign).digest('hex'));
  if (payloadHash !== sha256(body) || !amzDate.startsWith(date) || !timingSafeEqual(expected, Buffer.from(signature))) {
    return 'SignatureDoesNotMatch';
  }
  return null;
}

function xmlEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function errorXml(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'content-type': 'text/xml' });
  response.end(
    `<ErrorResponse xmlns="${namespace}"><Error><Type>Sender</Type><Code>${code}</Code><Message>${xmlEscape(message)}</Message></Error><RequestId>${randomUUID()}</RequestId></ErrorResponse>`,
  );
}

/** The entries of a query-protocol list (`Prefix.member.N.Field...`), each as its fields below the index. */
function members(form: URLSearchParams, prefix: string, item = 'member'): Array<Map<string, string>> {
  const found = new Map<number, Map<string, string>>();
  for (const [name, value] of form) {
    const match = new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.${item}\\.(\\d+)\\.(.+)$`).exec(name);
    if (match) {
      const index = Number(match[1]);
      const fields = found.get(index) ?? new Map<string, string>();
      fields.set(match[2] ?? '', value);
      found.set(index, fields);
    }
  }
  return [...found.entries()].sort(([a], [b]) => a - b).map(([, fields]) => fields);
}

function attributesOf(fields: Map<string, string>): SnsPublished['attributes'] {
  const attributes: SnsPublished['attributes'] = {};
  const entries = new URLSearchParams([...fields].filter(([name]) => name.startsWith('MessageAttributes.')));
  for (const entry of members(entries, 'MessageAttributes', 'entry')) {
    attributes[entry.get('Name') ?? ''] = { dataType: entry.get('Value.DataType') ?? '', value: entry.get('Value.StringValue') ?? '' };
  }
  return attributes;
}

/**
 * No SNS runs here, so the peer is a fake SNS endpoint on a free port speaking the protocol the
 * AWS SDK uses for SNS (the query protocol: form-encoded Action=Publish/PublishBatch, XML
 * answers), checking each request's SigV4 signature against its one key pair, so a wrong
 * secret fails as on AWS (403 SignatureDoesNotMatch). A .fifo topic drops a repeated
 * deduplication id (AWS: within five minutes). `break` answers 503 ServiceUnavailable.
 */
export const snsPeer = {
  kind: 'aws-simple-notification-service' as const,
  missing: () => null,
  async start(): Promise<SnsPeer> {
    const accessKeyId = 'AKIAGRIDPORTTEST0001';
    const secretAccessKey = 'gridport-test-secret-key/0123456789abcdef';
    const region = 'eu-west-1';
    const topicArn = `arn:aws:sns:${region}:123456789012:gridport-readings.fifo`;
    const published: SnsPublished[] = [];
    const seenDeduplicationIds = new Set<string>();
    let broken = false;
    let requests = 0;

    function take(entry: Omit<SnsPublished, 'attributes'> & { fields: Map<string, string> }): void {
      const { fields, ...rest } = entry;
      if (rest.topicArn.endsWith('.fifo')) {
        if (!rest.groupId || !rest.deduplicationId) {
          throw new Error('a .fifo topic needs MessageGroupId and MessageDeduplicationId');
        }
        const key = `${rest.topicArn} ${rest.deduplicationId}`;
        if (seenDeduplicationIds.has(key)) {
          return;
        }
        seenDeduplicationIds.add(key);
      }
      published.push({ ...rest, attributes: attributesOf(fields) });
    }

    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests += 1;
        const body = Buffer.concat(chunks);
        const problem = signatureProblem(request, body, { [accessKeyId]: secretAccessKey });
        if (problem) {
          errorXml(response, 403, problem, 'The request signature we calculated does not match the signature you provided.');
          return;
        }
        if (broken) {
          errorXml(response, 503, 'ServiceUnavailable', 'The service is unavailable.');
          return;
        }
        const form = new URLSearchParams(body.toString('utf8'));
        const action = form.get('Action');
        const topic = form.get('TopicArn') ?? '';
        try {
          if (action === 'Publish') {
            const messageId = randomUUID();
            take({
              topicArn: topic,
              message: form.get('Message') ?? '',
              groupId: form.get('MessageGroupId') ?? undefined,
              deduplicationId: form.get('MessageDeduplicationId') ?? undefined,
              fields: new Map(form),
            });
            response.writeHead(200, { 'content-type': 'text/xml' });
            response.end(
              `<PublishResponse xmlns="${namespace}"><PublishResult><MessageId>${messageId}</MessageId></PublishResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></PublishResponse>`,
            );
            return;
          }
          if (action === 'PublishBatch') {
            const entries = members(form, 'PublishBatchRequestEntries');
            if (entries.length === 0 || entries.length > 10) {
              errorXml(response, 400, entries.length === 0 ? 'EmptyBatchRequest' : 'TooManyEntriesInBatchRequest', 'A batch holds one to ten entries.');
              return;
            }
            const successful = entries.map((fields) => {
              take({
                topicArn: topic,
                message: fields.get('Message') ?? '',
                groupId: fields.get('MessageGroupId'),
                deduplicationId: fields.get('MessageDeduplicationId'),
                fields,
              });
              return `<member><Id>${xmlEscape(fields.get('Id') ?? '')}</Id><MessageId>${randomUUID()}</MessageId></member>`;
            });
            response.writeHead(200, { 'content-type': 'text/xml' });
            response.end(
              `<PublishBatchResponse xmlns="${namespace}"><PublishBatchResult><Successful>${successful.join('')}</Successful><Failed/></PublishBatchResult><ResponseMetadata><RequestId>${randomUUID()}</RequestId></ResponseMetadata></PublishBatchResponse>`,
            );
            return;
          }
          errorXml(response, 400, 'InvalidAction', `The action ${action ?? '(none)'} is not valid for this endpoint.`);
        } catch (error) {
          errorXml(response, 400, 'InvalidParameter', (error as Error).message);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };

    const received = (): ReceivedMessage[] =>
      published.map((entry) => {
        const message = JSON.parse(entry.message) as ForwardedMessage;
        if (
          entry.attributes.messageType?.value !== message.messageType ||
          entry.attributes.version?.value !== String(message.version) ||
          (entry.topicArn.endsWith('.fifo') && entry.groupId !== message.device.hashId)
        ) {
          throw new Error(`message ${message.position} arrived with unexpected attributes: ${JSON.stringify(entry)}`);
        }
        return receivedOf(message);
      });

    return {
      kind: 'aws-simple-notification-service',
      settings: { region, topicArn, accessKeyId, secretAccessKey, endpoint: `http://127.0.0.1:${port}` },
      published: () => [...published],
      requests: () => requests,
      received: () => Promise.resolve(received()),
      break() {
        broken = true;
        return Promise.resolve();
      },
      heal() {
        broken = false;
        return Promise.resolve();
      },
      stop: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  },
} satisfies PeerStarter;
