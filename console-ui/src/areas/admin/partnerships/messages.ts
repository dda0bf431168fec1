/** Texts of the admin partnerships screens. */
export const partnershipsMessages = {} as const;
