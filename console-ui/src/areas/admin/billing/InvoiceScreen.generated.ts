/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Why a charge was made (docs/billing.md, "Charges"). */
export type ChargeReason =
  | 'CONFIG_CHANGE'
  | 'DESTINATION_UPDATE'
  | 'DEVICE_GROUP_UPDATE'
  | 'DEVICE_UPDATE'
  | 'MANUALLY_ADDED'
  | 'SCHEDULED'
  | 'SUBSCRIPTION_INCREASE';

/** The ledger account a charge books on; subscription charges book on saas. */
export type LedgerAccount =
  | 'CONSULTANCY'
  | 'HARDWARE'
  | 'SAAS';

export type BillingInvoiceQueryVariables = Exact<{
  hashId: string;
}>;


export type BillingInvoiceQuery = { billingInvoice: { hashId: string, publicId: string, createdAt: string, customerReference: string | null, periodEnd: string, charge: number, chargeCount: number, pdfUrl: string, billingLegalEntity: { hashId: string, name: string } | null, totals: { hardware: number, saas: number, consultancy: number }, charges: Array<{ hashId: string, description: string, reason: Types.ChargeReason, from: string | null, to: string | null, billableAt: string, charge: number, ledgerAccount: Types.LedgerAccount, device: { hashId: string, name: string } | null }> } };


export const BillingInvoiceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BillingInvoice"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"billingInvoice"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"publicId"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"billingLegalEntity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"customerReference"}},{"kind":"Field","name":{"kind":"Name","value":"periodEnd"}},{"kind":"Field","name":{"kind":"Name","value":"charge"}},{"kind":"Field","name":{"kind":"Name","value":"totals"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hardware"}},{"kind":"Field","name":{"kind":"Name","value":"saas"}},{"kind":"Field","name":{"kind":"Name","value":"consultancy"}}]}},{"kind":"Field","name":{"kind":"Name","value":"chargeCount"}},{"kind":"Field","name":{"kind":"Name","value":"pdfUrl"}},{"kind":"Field","name":{"kind":"Name","value":"charges"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"device"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"billableAt"}},{"kind":"Field","name":{"kind":"Name","value":"charge"}},{"kind":"Field","name":{"kind":"Name","value":"ledgerAccount"}}]}}]}}]}}]} as unknown as DocumentNode<BillingInvoiceQuery, BillingInvoiceQueryVariables>;