/** The parts of a device's billing tab, each its own route under /admin/devices/{hashId}/billing (console.md section 2). */
export const deviceBillingSections = ['subscription', 'invoicing', 'charges', 'add-charge'] as const;
export type DeviceBillingSection = (typeof deviceBillingSections)[number];
