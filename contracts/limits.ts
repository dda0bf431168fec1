/** Limits and constants that more than one part of Gridport agrees on (console.md section 9, api.md section 9). */
export const limits = {
  /** Largest request body, in bytes (25 MB). */
  payloadBytes: 25 * 1024 * 1024,
  /** Longest list filter string. */
  filterLength: 255,
  /** Rows per page by default and at most. */
  rowsPerPageDefault: 50,
  rowsPerPageMax: 500,
  organizationNameLength: 100,
  /** How long a console session lasts. */
  sessionLifetimeSeconds: 7 * 24 * 60 * 60,
  /** GraphQL: deepest selection, most aliases, most tokens in one operation, longest document in characters. */
  graphqlMaxDepth: 12,
  graphqlMaxAliases: 15,
  graphqlMaxTokens: 2000,
  graphqlMaxDirectives: 20,
  graphqlMaxCost: 5000,
  /** API keys (api.md section 9): longest name, most IP ranges, longest PEM public key. */
  apiKeyNameLength: 100,
  apiKeyIpRanges: 50,
  apiKeyPublicKeyLength: 4096,
  /** Longest lifetime (exp minus iat) of a JWT signed with an API key's private key, in seconds. */
  apiKeyJwtMaxLifetimeSeconds: 3600,
  /** Clock skew allowed when checking such a JWT's iat, nbf and exp against the server's clock, in seconds. */
  apiKeyJwtClockSkewSeconds: 60,
  /** Contact name and email (api.md section 9). */
  contactFieldLength: 255,
  /** Nominal active power, in W, one user's dangerous actions may touch per rolling 24 hours (spec README). */
  dangerousActionAllowanceWatts: 5_000_000,
  dangerousActionWindowHours: 24,
} as const;

/** The provider's own organisation has this numeric id (spec README, "Provider organisation"). */
export const providerOrganizationId = 1;
