import type { FastifyInstance } from 'fastify';
import { GridportError } from '../../contracts/errors';
import { limits } from '../../contracts/limits';

export const formContentType = 'application/x-www-form-urlencoded';

/**
 * Parses an application/x-www-form-urlencoded body into single string values, on an object
 * without a prototype (a field named `__proto__` or `constructor` is a field like any other). A
 * bad percent-escape or a repeated field is url_encoded_body_invalid.
 */
export function parseFormBody(text: string): Record<string, string> {
  const fields = Object.create(null) as Record<string, string>;
  for (const pair of text.split('&').filter((part) => part !== '')) {
    const separator = pair.indexOf('=');
    const [rawName, rawValue] = separator === -1 ? [pair, ''] : [pair.slice(0, separator), pair.slice(separator + 1)];
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = decodeURIComponent(rawValue.replace(/\+/g, ' '));
    } catch {
      throw new GridportError('url_encoded_body_invalid', { reason: 'a field is not correctly percent-encoded' });
    }
    if (Object.prototype.hasOwnProperty.call(fields, name)) {
      throw new GridportError('url_encoded_body_invalid', { reason: `the field ${name} is repeated` });
    }
    fields[name] = value;
  }
  return fields;
}

/**
 * Routes in this scope take URL-encoded form bodies (the SAML HTTP-POST binding, Twilio's
 * webhooks) and nothing else; the rest of the app keeps its JSON-only parser.
 */
export function acceptFormBodies(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser(formContentType, { parseAs: 'string', bodyLimit: limits.payloadBytes }, (_request, body, done) => {
    try {
      done(null, parseFormBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: limits.payloadBytes }, (request, _body, done) => {
    done(
      new GridportError('url_encoded_body_invalid', { reason: `the body must be ${formContentType}, not ${request.headers['content-type'] ?? 'untyped'}` }),
      undefined,
    );
  });
}
