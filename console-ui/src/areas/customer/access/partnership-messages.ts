/** Texts of the customer's partnership lists. */
export const partnershipListMessages = {} as const;
