import { customerRights, staffRights, type Right } from '../../../../../contracts/rights';
import type { Right as RightName } from '../../../graphql/schema-types';
import type { MessageKey, Translate } from '../../../i18n/messages';

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

/** Rights as people read them: "Ops, Employee". */
export function rightsText(t: Translate, rights: readonly string[]): string {
  return rights.map((right) => t(`user.right.${right}` as MessageKey)).join(', ');
}
