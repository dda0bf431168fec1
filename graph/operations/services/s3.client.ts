import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { GridportError } from '../../../contracts/errors';

/**
 * An S3-compatible object store (AWS S3, MinIO, Ceph, Garage ...): S3_ENDPOINT, S3_BUCKET,
 * S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION (docs/operations.md, "Files").
 */
export interface S3Settings {
  /** The service's base URL, such as https://s3.eu-central-1.amazonaws.com or http://127.0.0.1:9000. */
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  /** How long one call may take; 60 s unless a test says otherwise. */
  timeoutMs?: number;
}

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding of one path segment, as SigV4 wants it (S3 encodes the path once). */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** `20261124T215000Z` and `20261124` of a moment. */
function amzDates(at: Date): { amzDate: string; day: string } {
  const amzDate = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  return { amzDate, day: amzDate.slice(0, 8) };
}

/**
 * The headers of a request signed with AWS Signature Version 4 (path-style addressing, the
 * payload's SHA-256 in x-amz-content-sha256): host, x-amz-date, x-amz-content-sha256, the given
 * ones, and Authorization.
 */
export function signS3Request(
  settings: Pick<S3Settings, 'accessKeyId' | 'secretAccessKey' | 'region'>,
  request: { method: string; url: URL; headers?: Record<string, string>; body?: Buffer },
  at: Date = new Date(),
): Record<string, string> {
  const { amzDate, day } = amzDates(at);
  const payloadHash = sha256Hex(request.body ?? Buffer.alloc(0));
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(request.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value.trim()])),
    host: request.url.host,
    'x-amz-date': amzDate,
    'x-amz-content-sha256': payloadHash,
  };
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonicalQuery = [...request.url.searchParams.entries()]
    .map(([name, value]) => `${encodeSegment(name)}=${encodeSegment(value)}`)
    .sort()
    .join('&');
  const canonicalRequest = [
    request.method,
    request.url.pathname,
    canonicalQuery,
    names.map((name) => `${name}:${headers[name] ?? ''}\n`).join(''),
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${day}/${settings.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${settings.secretAccessKey}`, day), settings.region), 's3'), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign).digest('hex');
  return {
    ...headers,
    authorization: `AWS4-HMAC-SHA256 Credential=${settings.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}

/**
 * A small client of the S3 object API (PutObject, GetObject, DeleteObject) over fetch, signed
 * with SigV4. A store that cannot be reached, times out or fails is service_unavailable; a
 * missing object not_found.
 */
export class S3Client {
  private readonly endpoint: string;
  private readonly timeoutMs: number;

  constructor(private readonly settings: S3Settings) {
    this.endpoint = settings.endpoint.replace(/\/+$/, '');
    this.timeoutMs = settings.timeoutMs ?? 60_000;
  }

  private objectUrl(key: string): URL {
    return new URL(`${this.endpoint}/${encodeSegment(this.settings.bucket)}/${key.split('/').map(encodeSegment).join('/')}`);
  }

  private async call(method: 'PUT' | 'GET' | 'DELETE', key: string, body?: Buffer, contentType?: string): Promise<Response> {
    const url = this.objectUrl(key);
    const headers = signS3Request(this.settings, {
      method,
      url,
      ...(body ? { body } : {}),
      ...(contentType ? { headers: { 'content-type': contentType } } : {}),
    });
    delete headers.host;
    try {
      // Node's Buffers sit on ArrayBuffers (never shared memory), which is what the DOM's BodyInit asks for.
      return await fetch(url, { method, headers, ...(body ? { body: body as Uint8Array<ArrayBuffer> } : {}), signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
      throw new GridportError('service_unavailable', {
        reason: timedOut ? `the file store did not answer within ${this.timeoutMs} ms` : 'the file store could not be reached',
      });
    }
  }

  private async refused(response: Response, what: string): Promise<GridportError> {
    const text = await response.text().catch(() => '');
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? null;
    return new GridportError('service_unavailable', { reason: `the file store refused to ${what} (${response.status}${code ? ` ${code}` : ''})` });
  }

  async putObject(key: string, body: Buffer, contentType: string): Promise<void> {
    const response = await this.call('PUT', key, body, contentType);
    if (!response.ok) {
      throw await this.refused(response, 'keep the file');
    }
    await response.arrayBuffer();
  }

  /** The object's bytes as a stream, so a large file is passed on without being held whole. */
  async getObject(key: string): Promise<Readable> {
    const response = await this.call('GET', key);
    if (response.status === 404) {
      await response.arrayBuffer();
      throw new GridportError('not_found', { reason: 'the file is missing from the file store' });
    }
    if (!response.ok) {
      throw await this.refused(response, 'give the file');
    }
    return response.body ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>) : Readable.from([]);
  }

  async deleteObject(key: string): Promise<void> {
    const response = await this.call('DELETE', key);
    if (!response.ok && response.status !== 404) {
      throw await this.refused(response, 'remove the file');
    }
    await response.arrayBuffer().catch(() => undefined);
  }
}
