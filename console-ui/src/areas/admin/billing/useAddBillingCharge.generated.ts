/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type BillingChargeCreateInput = {
  billableAt?: string | null | undefined;
  /** Euro cents; negative credits. */
  charge: number;
  description: string;
  deviceHashId?: string | null | undefined;
  ledgerAccount: LedgerAccount;
  organizationHashId: string;
  /** manual (the default) or shipment. */
  source?: string | null | undefined;
};

/** The ledger account a charge books on; subscription charges book on saas. */
export type LedgerAccount =
  | 'CONSULTANCY'
  | 'HARDWARE'
  | 'SAAS';

export type AddBillingChargeMutationVariables = Exact<{
  input: Types.BillingChargeCreateInput;
}>;


export type AddBillingChargeMutation = { addBillingCharge: { billingChargeHashId: string } };


export const AddBillingChargeDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"AddBillingCharge"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BillingChargeCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"addBillingCharge"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"billingChargeHashId"}}]}}]}}]} as unknown as DocumentNode<AddBillingChargeMutation, AddBillingChargeMutationVariables>;