/** Texts of the admin user-invites screens. */
export const userInvitesMessages = {} as const;
