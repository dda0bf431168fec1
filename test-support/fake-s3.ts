import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { S3Settings } from '../graph/operations/services/s3.client';

export interface FakeS3 {
  url: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** The objects kept, by key: their bytes and content type. */
  objects: Map<string, { body: Buffer; contentType: string | undefined }>;
  /** Each request: method, path, and the S3 error code it was answered with (null when it succeeded). */
  requests: { method: string; path: string; error: string | null }[];
  settings(overrides?: Partial<S3Settings>): S3Settings;
  close(): Promise<void>;
}

const hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/**
 * The signature AWS Signature Version 4 asks for on this request, computed from what arrived
 * (docs.aws.amazon.com, "Signature Version 4 signing process", for S3: the path as sent, the
 * payload hash in x-amz-content-sha256), with the secret the fake knows.
 */
function expectedSignature(request: IncomingMessage, path: string, query: string, signedHeaders: string[], secret: string, scope: string[]): string {
  const [day = '', region = '', service = ''] = scope;
  const canonicalQuery = query
    .split('&')
    .filter((part) => part !== '')
    .sort()
    .join('&');
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${String(request.headers[name] ?? '').trim()}\n`).join('');
  const canonical = [request.method, path, canonicalQuery, canonicalHeaders, signedHeaders.join(';'), String(request.headers['x-amz-content-sha256'])].join(
    '\n',
  );
  const toSign = ['AWS4-HMAC-SHA256', String(request.headers['x-amz-date']), scope.join('/'), hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  return createHmac('sha256', key).update(toSign).digest('hex');
}

/**
 * A local stand-in for an S3-compatible object store that speaks the part Gridport uses:
 * PutObject, GetObject and DeleteObject on `/<bucket>/<key>` (path-style), each signed with AWS
 * Signature Version 4 (Authorization header, x-amz-date, x-amz-content-sha256 matching the body).
 * A wrong signature, key or payload hash is 403 with S3's XML error; a missing object 404 NoSuchKey.
 */
export async function fakeS3({
  bucket = 'gridport-files',
  accessKeyId = 'GRIDPORTTESTKEY',
  secretAccessKey = 'gridport-test-secret',
  region = 'eu-central-1',
} = {}): Promise<FakeS3> {
  const objects = new Map<string, { body: Buffer; contentType: string | undefined }>();
  const requests: FakeS3['requests'] = [];

  const fail = (response: ServerResponse, status: number, code: string, log: FakeS3['requests'][number]) => {
    log.error = code;
    response.writeHead(status, { 'content-type': 'application/xml' });
    response.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
  };

  const handle = (request: IncomingMessage, response: ServerResponse, body: Buffer) => {
    const [rawPath = '/', query = ''] = (request.url ?? '/').split('?');
    const log = { method: request.method ?? 'GET', path: rawPath, error: null as string | null };
    requests.push(log);
    const authorization = /^AWS4-HMAC-SHA256 Credential=([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(request.headers.authorization ?? '');
    if (!authorization) {
      fail(response, 403, 'AccessDenied', log);
      return;
    }
    const [key, ...scope] = (authorization[1] ?? '').split('/');
    const signedHeaders = (authorization[2] ?? '').split(';');
    if (key !== accessKeyId) {
      fail(response, 403, 'InvalidAccessKeyId', log);
      return;
    }
    if (scope[1] !== region || scope[2] !== 's3' || scope[3] !== 'aws4_request' || !signedHeaders.includes('host') || !signedHeaders.includes('x-amz-date')) {
      fail(response, 403, 'AuthorizationHeaderMalformed', log);
      return;
    }
    if (request.headers['x-amz-content-sha256'] !== hex(body)) {
      fail(response, 400, 'XAmzContentSHA256Mismatch', log);
      return;
    }
    if (expectedSignature(request, rawPath, query, signedHeaders, secretAccessKey, scope) !== authorization[3]) {
      fail(response, 403, 'SignatureDoesNotMatch', log);
      return;
    }
    const parts = rawPath.split('/').slice(1).map(decodeURIComponent);
    if (parts[0] !== bucket || parts.length < 2) {
      fail(response, 404, 'NoSuchBucket', log);
      return;
    }
    const objectKey = parts.slice(1).join('/');
    if (request.method === 'PUT') {
      objects.set(objectKey, { body, contentType: request.headers['content-type'] });
      response.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
      response.end();
      return;
    }
    if (request.method === 'DELETE') {
      objects.delete(objectKey);
      response.writeHead(204);
      response.end();
      return;
    }
    if (request.method === 'GET') {
      const found = objects.get(objectKey);
      if (!found) {
        fail(response, 404, 'NoSuchKey', log);
        return;
      }
      response.writeHead(200, { 'content-type': found.contentType ?? 'binary/octet-stream', 'content-length': String(found.body.length) });
      response.end(found.body);
      return;
    }
    fail(response, 405, 'MethodNotAllowed', log);
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => handle(request, response, Buffer.concat(chunks)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    bucket,
    accessKeyId,
    secretAccessKey,
    region,
    objects,
    requests,
    settings: (overrides = {}) => ({ endpoint: url, bucket, accessKeyId, secretAccessKey, region, ...overrides }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
