import { ApolloClient, InMemoryCache, type ApolloLink } from '@apollo/client';
import { ApolloProvider } from '@apollo/client/react';
import type { RenderResult } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MessagesStore } from '../i18n/messages';
import { adminMessages } from '../i18n/messages/admin';
import { customerMessages } from '../i18n/messages/customer';
import type { Area } from '../shell/area';
import { renderWithProviders } from './render';

/**
 * A device component with the providers every screen has, the texts of `area` loaded, and an
 * Apollo client over `link` (a MockLink for queries and mutations, a MockSubscriptionLink for live reports).
 */
export async function renderWithApollo(node: ReactNode, link: ApolloLink, area: Area = 'customer'): Promise<RenderResult & { client: ApolloClient }> {
  const store = new MessagesStore(async (entered) => (entered === 'admin' ? adminMessages : customerMessages));
  await store.enter(area);
  const client = new ApolloClient({ link, cache: new InMemoryCache() });
  const result = renderWithProviders(<ApolloProvider client={client}>{node}</ApolloProvider>, store);
  return { ...result, client };
}

/** A stored report as the deviceReports subscription sends it. */
export function reportEvent(type: string, at: string, assetIndex: number | null, observations: Record<string, unknown>, reportId = `${type}-${at}`) {
  return {
    __typename: 'DeviceReportEvent',
    deviceHashId: 'd1',
    reportId,
    type,
    at,
    assetIndex,
    controllerIndex: null,
    body: { type, at, ...(assetIndex === null ? {} : { asset: assetIndex }), observations },
  };
}

/**
 * jsdom lays nothing out: while this file's tests run, every element is 480 px high, so a
 * device list shows 10 rows of 48 px (and its overscan).
 */
export function withListViewport(): void {
  const real = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => 480 });
  });
  afterAll(() => {
    if (real !== undefined) {
      Object.defineProperty(HTMLElement.prototype, 'clientHeight', real);
    }
  });
}

/** The admin device settings answer (AdminDeviceSettings) of a gateway that never connected, with `overrides`. */
export function anAdminDevice(overrides: Record<string, unknown> = {}) {
  return {
    __typename: 'Device',
    hashId: 'd7',
    name: 'Harbour battery',
    identifier: 'gw-7',
    isOnline: false,
    inProduction: false,
    isExposedToCustomer: false,
    monitorConnectivity: true,
    exportMessages: false,
    openForProvisioning: false,
    cloudApi: 'OFF',
    iccid: null,
    imsi: null,
    balenaUuid: null,
    config: null,
    assets: [],
    organizationHashId: null,
    organization: null,
    deviceGroupHashId: null,
    deviceGroup: null,
    outageEmails: [],
    outageUsers: [],
    partnerships: [],
    billingUsage: null,
    ...overrides,
  };
}
