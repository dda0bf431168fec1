/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** How often an organisation is invoiced. */
export type InvoiceFrequency =
  | 'DAILY'
  | 'MONTHLY';

/** What a customer organisation does. */
export type OrganizationType =
  | 'ASSET_OWNER'
  | 'DATA_RECEIVER'
  | 'ENERGY_TRADER'
  | 'INSTALLER';

export type OrganizationGeneralTab_OrganizationFragment = { hashId: string, name: string, type: Types.OrganizationType | null, isProvider: boolean, invoiceCustomerReference: string | null, invoiceFrequency: Types.InvoiceFrequency, requireLegalEntityPerDevice: boolean, requireCustomerReferencePerDevice: boolean, createdAt: string, updatedAt: string, subscriptionDefaults: { chargePeriod: number, runtime: number } | null };

export const OrganizationGeneralTab_OrganizationFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrganizationGeneralTab_organization"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"type"}},{"kind":"Field","name":{"kind":"Name","value":"isProvider"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceCustomerReference"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceFrequency"}},{"kind":"Field","name":{"kind":"Name","value":"requireLegalEntityPerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"requireCustomerReferencePerDevice"}},{"kind":"Field","name":{"kind":"Name","value":"subscriptionDefaults"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargePeriod"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}}]}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}}]}}]} as unknown as DocumentNode<OrganizationGeneralTab_OrganizationFragment, unknown>;