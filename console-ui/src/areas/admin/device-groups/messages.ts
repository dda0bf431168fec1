/** Texts of the admin device-groups screens. */
export const deviceGroupsMessages = {} as const;
