import type { Socket } from 'node:net';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import type { Logger } from 'pino';
import { GridportError } from '../contracts/errors';
import { limits } from '../contracts/limits';
import { jsonShapeIssue } from '../contracts/validation';
import type { Actor } from '../graph/common/context';
import { anonymousActor } from '../graph/common/context';
import type { Services } from '../graph/services';
import { clientClosed, markClosedByServer, maxPathParameterLength, sendError, toGridportError } from './errors';
import { defaultHttpBounds, type HttpBounds } from './http-bounds';
import { authenticator, clientAddress } from './auth';
import { installYupValidation } from './rest/route';
import { healthRoutes } from './rest/health.routes';
import { organizationRoutes } from './rest/organization.routes';
import { auditLogRoutes } from './rest/audit-log.routes';
import { authenticationRoutes } from './rest/authentication.routes';
import { loginRoutes } from './rest/login.routes';
import { twoFactorRoutes } from './rest/two-factor.routes';
import { userRoutes } from './rest/user.routes';
import { mailRoutes } from './rest/mail.routes';
import { passwordResetRoutes } from './rest/password-reset.routes';
import { userInviteRoutes } from './rest/user-invite.routes';
import { samlPlugin } from './rest/saml.routes';
import { apiKeyRoutes } from './rest/api-key.routes';
import { contactRoutes } from './rest/contact.routes';
import { deviceRoutes } from './rest/device.routes';
import { deviceOperationRoutes } from './rest/device-operations.routes';
import { partnershipRoutes } from './rest/partnership.routes';
import { deviceGroupRoutes } from './rest/device-group.routes';
import { deviceGroupMessageDestinationRoutes } from './rest/device-group-message-destination.routes';
import { messageDestinationRoutes } from './rest/message-destination.routes';
import { billingChargeRoutes } from './rest/billing-charge.routes';
import { billingInvoiceRoutes } from './rest/billing-invoice.routes';
import { issueRoutes } from './rest/issue.routes';
import { steeringRoutes } from './rest/steering.routes';
import { deviceLiveRoutes } from './rest/device-live.routes';
import { provisioningRoutes } from './rest/provisioning.routes';
import { consolePlugin } from './rest/console.routes';
import { fileRoutes } from './rest/file.routes';
import { onCallRoutes } from './rest/on-call.routes';
import { billingLegalEntityRoutes } from './rest/billing-legal-entity.routes';
import { twilioPlugin } from './rest/twilio.routes';
import type { SamlSettings } from '../graph/identity/services/saml.service';
import { inRequest, requestIdHeader, requestIdOf } from './request-context';
import { requestLogger } from './logger';
import type { Metrics } from './metrics';
import { readinessRoutes, type Readiness } from './readiness';

export interface AppOptions {
  services: Services;
  log: Logger;
  /** Whether the database answers (health probes). */
  databaseAnswers: () => Promise<boolean>;
  /** Mounts further routes (GraphQL, the console) on the app before it is ready. */
  register?: (app: FastifyInstance) => Promise<void> | void;
  version: string;
  /** Staff sign-in with SAML; without it, the development identity provider with an in-memory key. */
  saml?: SamlSettings;
  /** Proxies whose X-Forwarded-For names the client (TRUSTED_PROXIES); none by default. */
  trustedProxies?: readonly string[];
  /**
   * HTTPS: the server's certificate and key, and the CAs whose client certificates are asked for
   * (the platform's device CA: gateways prove themselves by mutual TLS; a browser, holding no
   * certificate of that CA, is not asked to pick one). A missing or foreign client certificate
   * is not refused here: the gateway then proves itself by the signed challenge.
   */
  https?: { certificatePem: string; privateKeyPem: string; clientCaPems: string[] };
  /** How long a client may take to send its request (server/config.ts); the defaults unless given. */
  http?: HttpBounds;
  /** This node's Prometheus metrics, served at /metrics; none without it. */
  metrics?: Metrics;
  /** Readiness (/readyz); without it /livez and /readyz are not served. */
  readiness?: Readiness;
}

const jsonContentType = /^application\/([\w.+-]+\+)?json$/i;

/** Node's largest request head (request line and headers), in bytes (its default, `--max-http-header-size`). */
const maxHeaderBytes = 16 * 1024;

/**
 * What the server answers, on the socket itself, to a request Node could not take (it did not
 * arrive within the bounds, or is not HTTP): 400 payload_not_readable with the reason, then the
 * connection is closed. Nothing is written once an answer has started.
 */
function clientErrorAnswer(bounds: HttpBounds, log: Logger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) {
      return;
    }
    if (error.code === 'HPE_INVALID_EOF_STATE') {
      // The client ended its side mid-request: it went away (the request, if routed, is logged 499).
      socket.destroy();
      return;
    }
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    let reason: string;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      reason = inFlight
        ? `the request did not arrive within ${bounds.requestTimeoutMs / 1000} s`
        : `the request headers did not arrive within ${bounds.headersTimeoutMs / 1000} s`;
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      reason = `the request headers are larger than ${maxHeaderBytes / 1024} KB`;
    } else {
      reason = `the request is not HTTP/1.1 this server reads (${error.code ?? error.message})`;
    }
    markClosedByServer(socket);
    log.warn({ statusCode: 400, key: 'payload_not_readable', reason, remoteAddress: socket.remoteAddress }, 'request refused before routing');
    if (socket.writable && inFlight?.headersSent !== true) {
      const body = JSON.stringify(new GridportError('payload_not_readable', { reason }).toBody());
      socket.write(
        `HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}

/** The HTTP server: REST facade, OpenAPI document, and whatever `register` adds. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const bounds = options.http ?? defaultHttpBounds;
  // Node checks the header and request timeouts on an interval: a quarter of the headers bound, at most a second, so either is kept within that.
  const nodeBounds = {
    headersTimeout: bounds.headersTimeoutMs,
    connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(bounds.headersTimeoutMs / 4))),
    maxHeaderSize: maxHeaderBytes,
  };
  const https = options.https
    ? {
        https: {
          cert: options.https.certificatePem,
          key: options.https.privateKeyPem,
          ca: options.https.clientCaPems,
          requestCert: true,
          rejectUnauthorized: false,
          ...nodeBounds,
        },
      }
    : { http: nodeBounds };
  // An https.Server is an http.Server to everything here (requests, upgrades): one instance type for both.
  const app = Fastify({
    loggerInstance: options.log as FastifyBaseLogger,
    bodyLimit: limits.payloadBytes,
    return503OnClosing: true,
    forceCloseConnections: true,
    requestTimeout: bounds.requestTimeoutMs,
    keepAliveTimeout: bounds.keepAliveTimeoutMs,
    routerOptions: { maxParamLength: maxPathParameterLength },
    clientErrorHandler: clientErrorAnswer(bounds, options.log),
    frameworkErrors: (error, request, reply) => sendError(toGridportError(error, request), request, reply),
    // Each request's id: a sane incoming x-request-id, else a fresh UUID; on every line of request.log as reqId (Fastify's label, requestIdLogKey).
    requestIdHeader: false,
    genReqId: (raw) => requestIdOf(raw.headers[requestIdHeader]),
    childLoggerFactory: (logger, bindings, childOptions) => requestLogger(logger as Logger, bindings, childOptions),
    ...https,
  }) as unknown as FastifyInstance;
  const authenticate = authenticator(options.services);
  const trustedProxies = options.trustedProxies ?? [];
  installYupValidation(app);

  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(jsonContentType, { parseAs: 'string', bodyLimit: limits.payloadBytes }, (_request, text, done) => {
    const body = typeof text === 'string' ? text : text.toString('utf8');
    if (body.trim() === '') {
      done(new GridportError('payload_not_json', { reason: 'the body is empty' }), undefined);
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch (error) {
      done(new GridportError('payload_not_json', { reason: (error as Error).message }), undefined);
      return;
    }
    // Too deep, or a key like `constructor`: refused here, before any route or schema reads it.
    const issue = jsonShapeIssue(parsed);
    if (issue !== null) {
      done(new GridportError('payload_invalid', [issue]), undefined);
      return;
    }
    done(null, parsed);
  });

  app.decorateRequest('actor', null as unknown as Actor);
  app.decorateRequest('clientAddress', '');
  // The answer names the request's id, and whatever the request runs (services, subgraphs) logs with it.
  // The body is read in the socket's context, so the handler's hooks enter the request's again.
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header(requestIdHeader, request.id);
    inRequest(request.id, done);
  });
  app.addHook('preHandler', (request, _reply, done) => inRequest(request.id, done));
  app.addHook('onRequest', async (request, reply) => {
    request.actor = anonymousActor;
    request.clientAddress = clientAddress(request, trustedProxies);
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished && clientClosed(request)) {
        request.log.warn({ statusCode: 499, key: 'client_closed_request', url: request.url }, 'client closed request');
      }
    });
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new GridportError('payload_not_readable', { reason: `content-encoding ${encoding} is not supported` });
    }
    // Probes and /metrics check their own callers, and must answer while the database does not.
    if (request.routeOptions.config.operational === true) {
      return;
    }
    request.actor = await authenticate(request);
  });

  app.setErrorHandler((error, request, reply) => sendError(toGridportError(error, request), request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(new GridportError('not_found', { method: request.method, url: request.url.split('?')[0] }), request, reply),
  );

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Gridport', version: options.version, description: 'The REST facade of Gridport.' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'gridport_session' },
          apiKey: { type: 'http', scheme: 'bearer' },
        },
      },
    },
  });

  options.metrics?.install(app);
  healthRoutes(app, options.services, options.databaseAnswers);
  if (options.readiness) {
    readinessRoutes(app, options.services, options.readiness);
  }
  organizationRoutes(app, options.services);
  auditLogRoutes(app, options.services);
  authenticationRoutes(app, options.services);
  loginRoutes(app, options.services);
  twoFactorRoutes(app, options.services);
  userRoutes(app, options.services);
  mailRoutes(app, options.services);
  passwordResetRoutes(app, options.services);
  userInviteRoutes(app, options.services);
  await app.register(samlPlugin(options.services, options.saml));
  apiKeyRoutes(app, options.services);
  contactRoutes(app, options.services);
  deviceRoutes(app, options.services);
  deviceOperationRoutes(app, options.services);
  partnershipRoutes(app, options.services);
  deviceGroupRoutes(app, options.services);
  deviceGroupMessageDestinationRoutes(app, options.services);
  messageDestinationRoutes(app, options.services);
  billingChargeRoutes(app, options.services);
  issueRoutes(app, options.services);
  steeringRoutes(app, options.services);
  deviceLiveRoutes(app, options.services);
  provisioningRoutes(app, options.services);
  fileRoutes(app, options.services);
  onCallRoutes(app, options.services);
  billingLegalEntityRoutes(app, options.services);
  billingInvoiceRoutes(app, options.services);
  await app.register(twilioPlugin(options.services));
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(consolePlugin({ version: options.version }));

  if (options.register) {
    await options.register(app);
  }
  await app.ready();
  return app;
}
