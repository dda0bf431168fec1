import type { FastifyInstance } from 'fastify';
import { provisionCertificateBodySchema, provisionCertificatePath, provisionCertificateResponseSchema } from '../../contracts/provisioning';
import type { Services } from '../../graph/services';
import { access } from './access';
import { defineRoute } from './route';

/** Certificate provisioning (api.md section 7): public, the token is the credential. */
export function provisioningRoutes(app: FastifyInstance, services: Services): void {
  defineRoute(app, services, {
    method: 'POST',
    url: provisionCertificatePath,
    summary: 'Exchange a shipped device’s one-time provisioning token and CSR (O=device, OU=identifier) for a certificate of the platform CA',
    tags: ['provisioning'],
    ...access('device.provision'),
    body: provisionCertificateBodySchema,
    status: 201,
    response: provisionCertificateResponseSchema,
    handler: ({ body }) => services.provisioning.provision(body),
  });
}
