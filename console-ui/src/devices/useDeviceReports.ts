import { useSubscription } from '@apollo/client/react';
import { useRef } from 'react';
import { DeviceReportsDocument, type DeviceReportsSubscription } from './useDeviceReports.generated';

export type DeviceReport = DeviceReportsSubscription['deviceReports'];

/**
 * Calls `onReport` with each report of the device as it is stored (graphql-ws), optionally of
 * some types only. The latest `onReport` is used, so callers need not memoise it.
 */
export function useDeviceReports(hashId: string, onReport: (report: DeviceReport) => void, types?: readonly string[]): void {
  const latest = useRef(onReport);
  latest.current = onReport;
  useSubscription(DeviceReportsDocument, {
    variables: { hashId, ...(types === undefined ? {} : { types: [...types] }) },
    onData: ({ data }) => {
      const report = data.data?.deviceReports;
      if (report !== undefined) {
        latest.current(report);
      }
    },
  });
}
