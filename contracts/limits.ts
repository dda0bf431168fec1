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
} as const;

/** The provider's own organisation has this numeric id (spec README, "Provider organisation"). */
export const providerOrganizationId = 1;
