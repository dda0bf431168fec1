import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { TwilioRequest } from '../../graph/operations/services/telephony.service';
import { twilioPaths } from '../../graph/operations/services/telephony.service';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';
import { acceptFormBodies } from './form-bodies';

/** What the service needs of Twilio's request: the path it came to, its fields, its signature. */
function twilioRequest(request: FastifyRequest): TwilioRequest {
  const signature = request.headers['x-twilio-signature'];
  return {
    url: request.url,
    params: (request.body ?? {}) as Record<string, string>,
    signature: typeof signature === 'string' ? signature : undefined,
  };
}

function sendTwiml(reply: FastifyReply, twiml: string): FastifyReply {
  return reply.code(200).type('text/xml; charset=utf-8').send(twiml);
}

/** Telephony (api.md section 7): Twilio's voice webhook, the dial's action and the status callback. */
export function twilioRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: twilioPaths.answer,
    summary: "Twilio's voice webhook: answers TwiML that dials the engineer on call (checked against X-Twilio-Signature)",
    tags: ['twilio'],
    ...access('telephony.call'),
    handler: async ({ request, reply }) => sendTwiml(reply, await services.telephony.answer(twilioRequest(request))),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: twilioPaths.finish,
    summary: "The dial's action: ends the call, dials the next engineer, or offers voicemail when nobody answered",
    tags: ['twilio'],
    ...access('telephony.call'),
    handler: async ({ request, reply }) => sendTwiml(reply, await services.telephony.finish(twilioRequest(request))),
  });

  defineRoute(app, services, {
    method: 'POST',
    url: twilioPaths.status,
    summary: "Twilio's status callback: records the call's status on its issue",
    tags: ['twilio'],
    ...access('telephony.call'),
    status: 204,
    handler: async ({ request }) => {
      await services.telephony.status(twilioRequest(request));
    },
  });
}

/** Mounts the Twilio routes in their own scope, which takes URL-encoded form bodies and nothing else. */
export function twilioPlugin(services: Services): FastifyPluginAsync {
  return async (scope) => {
    acceptFormBodies(scope);
    twilioRoutes(scope, services);
  };
}
