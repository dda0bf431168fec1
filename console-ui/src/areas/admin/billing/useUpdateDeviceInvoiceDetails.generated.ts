/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Only the fields given change; null clears a field. */
export type DeviceInvoiceDetailsInput = {
  /** A legal entity of the device's organisation; null: the organisation's default (billing_legal_entity_must_be_null without an organisation). */
  billingLegalEntityHashId?: string | null | undefined;
  invoiceCustomerReference?: string | null | undefined;
  subscription?: unknown;
  /** ISO 8601. */
  subscriptionChargedUntil?: string | null | undefined;
};

export type UpdateDeviceInvoiceDetailsMutationVariables = Exact<{
  hashId: string;
  input: Types.DeviceInvoiceDetailsInput;
}>;


export type UpdateDeviceInvoiceDetailsMutation = { updateDeviceInvoiceDetails: { hashId: string, organizationHashId: string | null, subscription: unknown, subscriptionChargedUntil: string | null, invoiceCustomerReference: string | null, organization: { hashId: string, name: string, subscriptionDefaults: { chargePeriod: number, runtime: number } | null } | null, billingLegalEntity: { hashId: string, companyName: string } | null, billingUsage: { units: unknown, unitCount: number, monthlyPriceBeforeDiscount: number, monthlyPrice: number } | null } };


export const UpdateDeviceInvoiceDetailsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateDeviceInvoiceDetails"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DeviceInvoiceDetailsInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDeviceInvoiceDetails"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"DeviceBillingTab_device"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"DeviceBillingTab_device"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Device"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"organizationHashId"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"subscriptionDefaults"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"chargePeriod"}},{"kind":"Field","name":{"kind":"Name","value":"runtime"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"subscription"}},{"kind":"Field","name":{"kind":"Name","value":"subscriptionChargedUntil"}},{"kind":"Field","name":{"kind":"Name","value":"invoiceCustomerReference"}},{"kind":"Field","name":{"kind":"Name","value":"billingLegalEntity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"companyName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"billingUsage"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"units"}},{"kind":"Field","name":{"kind":"Name","value":"unitCount"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyPriceBeforeDiscount"}},{"kind":"Field","name":{"kind":"Name","value":"monthlyPrice"}}]}}]}}]} as unknown as DocumentNode<UpdateDeviceInvoiceDetailsMutation, UpdateDeviceInvoiceDetailsMutationVariables>;