import { graphqlEnum } from '../../common/graphql-enum';
import { invoiceFrequencies, organizationTypes } from '../../../contracts/organization';

export const OrganizationTypeEnum = graphqlEnum('OrganizationType', organizationTypes, 'What a customer organisation does.');

export const InvoiceFrequencyEnum = graphqlEnum('InvoiceFrequency', invoiceFrequencies, 'How often an organisation is invoiced.');
