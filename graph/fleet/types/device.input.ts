import { GraphQLJSON } from 'graphql-scalars';
import { Field, ID, InputType } from 'type-graphql';
import type { CloudApiLevel } from '../../../contracts/fleet';
import { CloudApiLevelEnum } from './device.enum';

/* The bodies of the device mutations; their rules are the yup schemas of contracts/fleet.ts, as over REST. */

@InputType('DeviceUpdateInput', { description: 'Only the fields given change; null clears a field that may be empty.' })
export class DeviceUpdateInput {
  @Field(() => String, { nullable: true })
  name?: string;

  @Field(() => ID, { nullable: true })
  organizationHashId?: string | null;

  @Field(() => ID, { nullable: true })
  deviceGroupHashId?: string | null;

  @Field(() => GraphQLJSON, { nullable: true, description: 'A configuration (version 2).' })
  config?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true })
  balenaUuid?: string | null;

  @Field(() => String, { nullable: true })
  iccid?: string | null;

  @Field(() => String, { nullable: true })
  imsi?: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  monitorSettings?: Record<string, unknown>;

  @Field(() => GraphQLJSON, { nullable: true })
  subscription?: Record<string, unknown> | null;

  @Field(() => Boolean, { nullable: true })
  monitorConnectivity?: boolean;

  @Field(() => Boolean, { nullable: true })
  exportMessages?: boolean;

  @Field(() => CloudApiLevelEnum, { nullable: true })
  cloudApi?: CloudApiLevel;

  @Field(() => Boolean, { nullable: true })
  openForProvisioning?: boolean;

  @Field(() => [String], { nullable: true })
  outageEmails?: string[];

  @Field(() => [ID], { nullable: true })
  outageUsersHashIds?: string[];

  @Field(() => Boolean, { nullable: true })
  isExposedToCustomer?: boolean;

  @Field(() => Boolean, { nullable: true })
  inProduction?: boolean;
}

@InputType('DeviceOutageContactsInput', { description: 'Outage emails and users to add and to remove; each user must be able to see the device.' })
export class DeviceOutageContactsInput {
  @Field(() => [String], { nullable: true })
  outageEmails?: string[];

  @Field(() => [String], { nullable: true })
  removedOutageEmails?: string[];

  @Field(() => [ID], { nullable: true })
  outageUsersHashIds?: string[];

  @Field(() => [ID], { nullable: true })
  removedOutageUsersHashIds?: string[];
}

@InputType('DeviceInvoiceDetailsInput', { description: 'Only the fields given change; null clears a field.' })
export class DeviceInvoiceDetailsInput {
  @Field(() => String, { nullable: true })
  invoiceCustomerReference?: string | null;

  @Field(() => GraphQLJSON, { nullable: true })
  subscription?: Record<string, unknown> | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601.' })
  subscriptionChargedUntil?: string | null;

  @Field(() => ID, {
    nullable: true,
    description: "A legal entity of the device's organisation; null: the organisation's default (billing_legal_entity_must_be_null without an organisation).",
  })
  billingLegalEntityHashId?: string | null;
}
