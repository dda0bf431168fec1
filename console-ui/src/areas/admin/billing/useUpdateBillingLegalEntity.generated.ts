/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type * as Types from '../../../graphql/schema-types';

import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
/** Only the fields given change; null clears a field that may be empty. */
export type BillingLegalEntityUpdateInput = {
  /** A Moneybird contact id: its details fill in first; null unlinks the contact. */
  accountingContactId?: string | null | undefined;
  address1?: string | null | undefined;
  address2?: string | null | undefined;
  chamberOfCommerce?: string | null | undefined;
  city?: string | null | undefined;
  companyName?: string | null | undefined;
  country?: string | null | undefined;
  emails?: Array<string> | null | undefined;
  isOrganizationDefault?: boolean | null | undefined;
  taxNumber?: string | null | undefined;
  zipcode?: string | null | undefined;
};

export type UpdateBillingLegalEntityMutationVariables = Exact<{
  hashId: string;
  input: Types.BillingLegalEntityUpdateInput;
}>;


export type UpdateBillingLegalEntityMutation = { updateBillingLegalEntity: { hashId: string, companyName: string, address1: string | null, address2: string | null, zipcode: string | null, city: string | null, country: string, emails: Array<string>, chamberOfCommerce: string | null, taxNumber: string | null, accountingContactId: string | null, isOrganizationDefault: boolean, createdAt: string } };


export const UpdateBillingLegalEntityDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UpdateBillingLegalEntity"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BillingLegalEntityUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateBillingLegalEntity"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"hashId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"hashId"}}},{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"LegalEntityScreen_entity"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"LegalEntityScreen_entity"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"BillingLegalEntity"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hashId"}},{"kind":"Field","name":{"kind":"Name","value":"companyName"}},{"kind":"Field","name":{"kind":"Name","value":"address1"}},{"kind":"Field","name":{"kind":"Name","value":"address2"}},{"kind":"Field","name":{"kind":"Name","value":"zipcode"}},{"kind":"Field","name":{"kind":"Name","value":"city"}},{"kind":"Field","name":{"kind":"Name","value":"country"}},{"kind":"Field","name":{"kind":"Name","value":"emails"}},{"kind":"Field","name":{"kind":"Name","value":"chamberOfCommerce"}},{"kind":"Field","name":{"kind":"Name","value":"taxNumber"}},{"kind":"Field","name":{"kind":"Name","value":"accountingContactId"}},{"kind":"Field","name":{"kind":"Name","value":"isOrganizationDefault"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}}]}}]} as unknown as DocumentNode<UpdateBillingLegalEntityMutation, UpdateBillingLegalEntityMutationVariables>;