/** Texts of the admin organizations screens. */
export const organizationsMessages = {} as const;
