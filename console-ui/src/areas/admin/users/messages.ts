/** Texts of the admin users screens. */
export const usersMessages = {} as const;
