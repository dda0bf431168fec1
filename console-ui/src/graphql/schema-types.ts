export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A date-time string at UTC, such as 2007-12-03T10:15:30Z, compliant with the `date-time` format outlined in section 5.6 of the RFC 3339 profile of the ISO 8601 standard for representation of dates and times using the Gregorian calendar.This scalar is serialized to a string in ISO 8601 format and parsed from a string in ISO 8601 format. */
  DateTimeISO: { input: string; output: string; }
  /** The `JSON` scalar type represents JSON values as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf). */
  JSON: { input: unknown; output: unknown; }
};

/** The one acting on this request. */
export type Actor = {
  __typename?: 'Actor';
  kind: ActorKind;
  name: Scalars['String']['output'];
  /** Null for Gridport itself. */
  organization: Maybe<Organization>;
  rights: Array<Right>;
};

/** Who is acting: a signed-in user, an API key, or Gridport itself. */
export type ActorKind =
  | 'API_KEY'
  | 'SYSTEM'
  | 'USER';

/** An API key in a list, with its organisation; its secret is shown only when it is created or reset. */
export type ApiKey = {
  __typename?: 'ApiKey';
  hashId: Scalars['ID']['output'];
  /** IPv4 CIDR ranges the key may be used from; empty: anywhere. */
  ipRanges: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  organizationHashId: Scalars['ID']['output'];
  organizationName: Scalars['String']['output'];
  rights: Array<Scalars['String']['output']>;
  user: Maybe<ApiKeyUser>;
};

export type ApiKeyCreateInput = {
  /** At most 50 IPv4 CIDR ranges the key may be used from; empty or not given: anywhere. */
  ipRanges?: InputMaybe<Array<Scalars['String']['input']>>;
  /** 1 to 100 characters. */
  name: Scalars['String']['input'];
  organizationHashId: Scalars['ID']['input'];
  /** A PEM public key; the client may then sign short-lived JWTs instead of sending the secret. */
  publicKey?: InputMaybe<Scalars['String']['input']>;
};

/** An API key as GET /v1/api-key/{hashId} gives it; its secret is shown only when it is created or reset. */
export type ApiKeyDetail = {
  __typename?: 'ApiKeyDetail';
  hashId: Scalars['ID']['output'];
  /** IPv4 CIDR ranges the key may be used from; empty: anywhere. */
  ipRanges: Array<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  rights: Array<Scalars['String']['output']>;
  user: Maybe<ApiKeyUser>;
};

export type ApiKeyPage = {
  __typename?: 'ApiKeyPage';
  /** Pass as offset for the next page; null on the last. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<ApiKey>;
};

/** A key with its secret, shown this once: send it as Authorization: Bearer <apiKey>. */
export type ApiKeySecret = {
  __typename?: 'ApiKeySecret';
  apiKey: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
};

/** Only the fields given change; publicKey null removes the public key. */
export type ApiKeyUpdateInput = {
  ipRanges?: InputMaybe<Array<Scalars['String']['input']>>;
  name?: InputMaybe<Scalars['String']['input']>;
  publicKey?: InputMaybe<Scalars['String']['input']>;
};

/** The user who created an API key. */
export type ApiKeyUser = {
  __typename?: 'ApiKeyUser';
  email: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** What kind of change an audit log row records. */
export type AuditChangeType =
  | 'CONTROLLER_2FA_CHANGES'
  | 'CONTROLLER_CREATE'
  | 'CONTROLLER_DELETE'
  | 'CONTROLLER_DEVICE_SHIPPED'
  | 'CONTROLLER_MESSAGE_TO_DEVICE'
  | 'CONTROLLER_UPDATE'
  | 'CONTROLLER_USER_PASSWORD_RESET'
  | 'DEVICE_GATEWAY_MESSAGE_TO_DEVICE'
  | 'DEVICE_GATEWAY_MONITORING'
  | 'MESSAGE_FROM_DEVICE';

/** A page of audit log rows, newest first. */
export type AuditLogPage = {
  __typename?: 'AuditLogPage';
  /** The offset of the next page; null on the last page. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<AuditLogRow>;
};

/** One change to one object. */
export type AuditLogRow = {
  __typename?: 'AuditLogRow';
  actorName: Scalars['String']['output'];
  changeType: AuditChangeType;
  createdAt: Scalars['DateTimeISO']['output'];
  /** The fields that changed, each { type, name, ... } by what it holds (oldValue and newValue for plain values; none for hidden fields). */
  diff: Array<Scalars['JSON']['output']>;
  hashId: Scalars['ID']['output'];
  objectHashId: Scalars['ID']['output'];
  objectType: AuditObjectType;
  /** Shared by every row one write produced. */
  transactionIdentifier: Scalars['String']['output'];
  /** Null when Gridport itself, an API key or the command line made the change. */
  user: Maybe<AuditLogUser>;
};

/** The user who made a change. */
export type AuditLogUser = {
  __typename?: 'AuditLogUser';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

/** The kinds of objects whose changes the audit log records. */
export type AuditObjectType =
  | 'API_KEYS'
  | 'CONTACTS'
  | 'DEVICES'
  | 'DEVICE_GROUPS'
  | 'ISSUES'
  | 'MESSAGE_DESTINATIONS'
  | 'ORGANIZATIONS'
  | 'PARTNERSHIPS'
  | 'USERS';

/** How often an organisation is invoiced. */
export type InvoiceFrequency =
  | 'DAILY'
  | 'MONTHLY';

export type LoginInput = {
  /** The current two-factor code, when two-factor is on. */
  code?: InputMaybe<Scalars['String']['input']>;
  email: Scalars['String']['input'];
  password: Scalars['String']['input'];
  /** A recovery code instead of the two-factor code; each works once. */
  recoveryCode?: InputMaybe<Scalars['String']['input']>;
};

export type Mutation = {
  __typename?: 'Mutation';
  /** Creates a key; its secret is in the answer and nowhere else. */
  createApiKey: ApiKeySecret;
  createOrganization: Organization;
  deleteApiKey: Scalars['Boolean']['output'];
  /** Invites 1 to 20 emails into an organisation and mails each its link (Ops). */
  inviteUsers: Array<UserInvite>;
  /** Starts a console session (sets the session cookie) and answers who signed in. */
  login: Actor;
  /** Ends the console session of this request and clears its cookie. */
  logout: Scalars['Boolean']['output'];
  /** Gives the key a new secret; the old one stops working at once. */
  resetApiKey: ApiKeySecret;
  /** Revokes an open invite; its link stops working (Ops). */
  revokeUserInvite: Scalars['Boolean']['output'];
  updateApiKey: Scalars['Boolean']['output'];
  updateOrganization: Organization;
};


export type MutationCreateApiKeyArgs = {
  input: ApiKeyCreateInput;
};


export type MutationCreateOrganizationArgs = {
  input: OrganizationCreateInput;
};


export type MutationDeleteApiKeyArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationInviteUsersArgs = {
  input: UserInviteInput;
};


export type MutationLoginArgs = {
  input: LoginInput;
};


export type MutationResetApiKeyArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationRevokeUserInviteArgs = {
  hashId: Scalars['ID']['input'];
};


export type MutationUpdateApiKeyArgs = {
  hashId: Scalars['ID']['input'];
  input: ApiKeyUpdateInput;
};


export type MutationUpdateOrganizationArgs = {
  hashId: Scalars['ID']['input'];
  input: OrganizationUpdateInput;
};

/** A customer organisation, or the provider itself. */
export type Organization = {
  __typename?: 'Organization';
  createdAt: Scalars['DateTimeISO']['output'];
  hashId: Scalars['ID']['output'];
  invoiceCustomerReference: Maybe<Scalars['String']['output']>;
  invoiceFrequency: InvoiceFrequency;
  isProvider: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
  /** Usage pricing ({ type: "usage", tiers, rates, expiresAt }) or { type: "legacy" }. */
  pricing: Maybe<Scalars['JSON']['output']>;
  requireCustomerReferencePerDevice: Scalars['Boolean']['output'];
  requireLegalEntityPerDevice: Scalars['Boolean']['output'];
  subscriptionDefaults: Maybe<SubscriptionDefaults>;
  /** Null only for the provider organisation. */
  type: Maybe<OrganizationType>;
  updatedAt: Scalars['DateTimeISO']['output'];
};

export type OrganizationCreateInput = {
  invoiceCustomerReference?: InputMaybe<Scalars['String']['input']>;
  /** MONTHLY when not given. */
  invoiceFrequency?: InputMaybe<InvoiceFrequency>;
  /** 1 to 100 characters. */
  name: Scalars['String']['input'];
  pricing?: InputMaybe<Scalars['JSON']['input']>;
  requireCustomerReferencePerDevice?: InputMaybe<Scalars['Boolean']['input']>;
  requireLegalEntityPerDevice?: InputMaybe<Scalars['Boolean']['input']>;
  subscriptionDefaults?: InputMaybe<SubscriptionDefaultsInput>;
  type: OrganizationType;
};

/** A page of organisations, newest first. */
export type OrganizationPage = {
  __typename?: 'OrganizationPage';
  /** The offset of the next page; null on the last page. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<Organization>;
};

/** What a customer organisation does. */
export type OrganizationType =
  | 'ASSET_OWNER'
  | 'DATA_RECEIVER'
  | 'ENERGY_TRADER'
  | 'INSTALLER';

/** Only the fields given change; null clears a nullable field. */
export type OrganizationUpdateInput = {
  invoiceCustomerReference?: InputMaybe<Scalars['String']['input']>;
  invoiceFrequency?: InputMaybe<InvoiceFrequency>;
  name?: InputMaybe<Scalars['String']['input']>;
  pricing?: InputMaybe<Scalars['JSON']['input']>;
  requireCustomerReferencePerDevice?: InputMaybe<Scalars['Boolean']['input']>;
  requireLegalEntityPerDevice?: InputMaybe<Scalars['Boolean']['input']>;
  subscriptionDefaults?: InputMaybe<SubscriptionDefaultsInput>;
  type?: InputMaybe<OrganizationType>;
};

export type Query = {
  __typename?: 'Query';
  apiKey: ApiKeyDetail;
  apiKeys: ApiKeyPage;
  /** The audit log, newest first (staff only). */
  auditLog: AuditLogPage;
  /** The one acting on this request; null when nobody is signed in. */
  me: Maybe<Actor>;
  /** One organisation: staff see any, customers their own. */
  organization: Organization;
  /** Organisations, newest first (staff only). */
  organizations: OrganizationPage;
  /** One user: staff see any, customers those of their organisation. */
  user: User;
  /** Open invites, newest first: staff see every organisation (or one), customers their own. */
  userInvites: UserInvitePage;
  /** Users, newest first: staff across organisations, customers within their own. */
  users: UserPage;
};


export type QueryApiKeyArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryApiKeysArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organization: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryAuditLogArgs = {
  objectHashId: InputMaybe<Scalars['ID']['input']>;
  objectType: InputMaybe<AuditObjectType>;
  offset: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
  transactionIdentifier: InputMaybe<Scalars['String']['input']>;
};


export type QueryOrganizationArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryOrganizationsArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
  type: InputMaybe<OrganizationType>;
};


export type QueryUserArgs = {
  hashId: Scalars['ID']['input'];
};


export type QueryUserInvitesArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};


export type QueryUsersArgs = {
  filter: InputMaybe<Scalars['String']['input']>;
  offset: InputMaybe<Scalars['String']['input']>;
  organizationHashId: InputMaybe<Scalars['String']['input']>;
  rowsPerPage: InputMaybe<Scalars['Int']['input']>;
};

/** A right an actor holds. */
export type Right =
  | 'CUSTOMER_READ'
  | 'CUSTOMER_WRITE'
  | 'GRIDPORT_ADMIN'
  | 'GRIDPORT_DEVELOPER'
  | 'GRIDPORT_EMPLOYEE'
  | 'GRIDPORT_OPS'
  | 'GRIDPORT_SALES';

/** The subscription terms new devices of an organisation start with. */
export type SubscriptionDefaults = {
  __typename?: 'SubscriptionDefaults';
  /** Months charged per period. */
  chargePeriod: Scalars['Int']['output'];
  /** Months a subscription runs. */
  runtime: Scalars['Int']['output'];
};

export type SubscriptionDefaultsInput = {
  chargePeriod: Scalars['Int']['input'];
  runtime: Scalars['Int']['input'];
};

/** A person who signs in to the console. */
export type User = {
  __typename?: 'User';
  email: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  organization: Organization;
  /** gridport.admin, gridport.ops, gridport.developer, gridport.sales, gridport.employee, customer.read, customer.write */
  rights: Array<Scalars['String']['output']>;
};

/** An open invite: the invitee becomes a user of the organisation with the given rights. */
export type UserInvite = {
  __typename?: 'UserInvite';
  email: Scalars['String']['output'];
  /** ISO 8601; an invite lasts 7 days. */
  expiresAt: Scalars['String']['output'];
  hashId: Scalars['ID']['output'];
  organization: UserInviteOrganization;
  rights: Array<Right>;
};

export type UserInviteInput = {
  /** 1 to 20 emails. */
  emails: Array<Scalars['String']['input']>;
  organizationHashId: Scalars['ID']['input'];
  /** customer.read for a customer organisation, gridport.employee for Gridport, when not given. */
  rights?: InputMaybe<Array<Right>>;
};

/** The organisation an invite is into. */
export type UserInviteOrganization = {
  __typename?: 'UserInviteOrganization';
  hashId: Scalars['ID']['output'];
  name: Scalars['String']['output'];
};

export type UserInvitePage = {
  __typename?: 'UserInvitePage';
  /** Pass as offset for the next page; null on the last. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<UserInvite>;
};

export type UserPage = {
  __typename?: 'UserPage';
  /** Pass as offset for the next page; null on the last. */
  nextPageOffset: Maybe<Scalars['String']['output']>;
  rows: Array<User>;
};
