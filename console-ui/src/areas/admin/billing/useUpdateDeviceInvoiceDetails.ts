import { useMutation } from '@apollo/client/react';
import { useCallback } from 'react';
import { UpdateDeviceInvoiceDetailsDocument, type DeviceInvoiceDetailsInput } from './useUpdateDeviceInvoiceDetails.generated';

/**
 * Saves a device's invoice details or subscription (updateDeviceInvoiceDetails); the answer is the
 * device as the billing tab shows it, so the cache shows what was saved.
 */
export function useUpdateDeviceInvoiceDetails(): (hashId: string, input: DeviceInvoiceDetailsInput) => Promise<void> {
  const [mutate] = useMutation(UpdateDeviceInvoiceDetailsDocument);
  return useCallback(
    async (hashId: string, input: DeviceInvoiceDetailsInput) => {
      await mutate({ variables: { hashId, input } });
    },
    [mutate],
  );
}
