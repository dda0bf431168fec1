import { organizationCreateSchema, type OrganizationType, type OrganizationView } from '../contracts/organization';
import { validate } from '../contracts/validation';
import { systemActor } from '../graph/common/context';
import type { Services } from '../graph/services';

let organizations = 0;

/** A customer organisation with every field at its default but those given. */
export async function anOrganization(services: Services, overrides: { name?: string; type?: OrganizationType } = {}): Promise<OrganizationView> {
  organizations += 1;
  const input = validate(organizationCreateSchema, { name: `Organisation ${organizations}`, type: 'asset-owner', ...overrides }, 'payload_invalid');
  return services.organizations.create(systemActor('test'), input);
}
