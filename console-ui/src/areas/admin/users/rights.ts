import { customerRights, staffRights, type Right } from '../../../../../contracts/rights';
import type { Right as RightName } from '../../../graphql/schema-types';

/** The GraphQL enum value of a right (gridport.admin is GRIDPORT_ADMIN). */
export function rightName(right: Right): RightName {
  return right.replace('.', '_').toUpperCase() as RightName;
}

/** The right of a GraphQL enum value (GRIDPORT_ADMIN is gridport.admin). */
export function rightOfName(name: RightName): Right {
  return name.toLowerCase().replace('_', '.') as Right;
}

/** The rights a user of an organisation may hold: staff rights in the provider's, customer rights elsewhere. */
export function rightsOfOrganization(isProvider: boolean): readonly Right[] {
  return isProvider ? staffRights : customerRights;
}
