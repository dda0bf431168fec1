import { partnershipRoles } from '../../../contracts/fleet';
import { partnershipKinds } from '../../../contracts/partnership';
import { graphqlEnum } from '../../common/graphql-enum';

export const PartnershipRoleEnum = graphqlEnum('PartnershipRole', partnershipRoles, 'What a partner may do with shared devices.');

export const PartnershipKindEnum = graphqlEnum('PartnershipKind', partnershipKinds, "Which side of a partnership the caller's organisation is on.");
