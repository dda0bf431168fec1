/** Texts of the admin api-keys screens. */
export const apiKeysMessages = {} as const;
