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

/** Where a charge comes from. */
export type ChargeSource =
  | 'MANUAL'
  | 'SHIPMENT'
  | 'SUBSCRIPTION';

/** The ledger account a charge books on; subscription charges book on saas. */
export type LedgerAccount =
  | 'CONSULTANCY'
  | 'HARDWARE'
  | 'SAAS';

export type BillingChargeList_ChargeFragment = { hashId: string, source: Types.ChargeSource, reason: Types.ChargeReason, description: string, billableAt: string, from: string | null, to: string | null, charge: number, ledgerAccount: Types.LedgerAccount, invoiceHashId: string | null, invoicePublicId: string | null, refunded: boolean, refundOfHashId: string | null, device: { hashId: string, name: string } | null };

export type BillingChargesQueryVariables = Exact<{
  organizationHashId?: string | null | undefined;
  deviceHashId?: string | null | undefined;
  offset?: string | null | undefined;
  rowsPerPage?: number | null | undefined;
}>;


export type BillingChargesQuery = { billingCharges: { nextPageOffset: string | null, rows: Array<{ hashId: string, source: Types.ChargeSource, reason: Types.ChargeReason, description: string, billableAt: string, from: string | null, to: string | null, charge: number, ledgerAccount: Types.LedgerAccount, invoiceHashId: string | null, invoicePublicId: string | null, refunded: boolean, refundOfHashId: string | null, device: { hashId: string, name: string } | null }> } };

export const BillingChargeList_ChargeFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BillingChargeList_charge"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BillingCharge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"device"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"billableAt"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"charge"}},{"kind":"Field","name":{"kind":"Name","value":"ledgerAccount"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceHashId"}},{"kind":"Field","name":{"kind":"Name","value":"invoicePublicId"}},{"kind":"Field","name":{"kind":"Name","value":"refunded"}},{"kind":"Field","name":{"kind":"Name","value":"refundOfHashId"}}]}}]} as unknown as DocumentNode<BillingChargeList_ChargeFragment, unknown>;
export const BillingChargesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BillingCharges"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deviceHashId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offset"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"rowsPerPage"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"billingCharges"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"deviceHashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deviceHashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"offset"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offset"}}},{"kind":"Argument","name":{"kind":"Name","value":"rowsPerPage"},"value":{"kind":"Variable","name":{"kind":"Name","value":"rowsPerPage"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"BillingChargeList_charge"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nextPageOffset"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"BillingChargeList_charge"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BillingCharge"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"device"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"billableAt"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"charge"}},{"kind":"Field","name":{"kind":"Name","value":"ledgerAccount"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceHashId"}},{"kind":"Field","name":{"kind":"Name","value":"invoicePublicId"}},{"kind":"Field","name":{"kind":"Name","value":"refunded"}},{"kind":"Field","name":{"kind":"Name","value":"refundOfHashId"}}]}}]} as unknown as DocumentNode<BillingChargesQuery, BillingChargesQueryVariables>;