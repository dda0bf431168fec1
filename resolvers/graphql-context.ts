import DataLoader from 'dataloader';
import { GridportError } from '../contracts/errors';
import type { DeviceGroupView } from '../contracts/device-group';
import type { GroupForwardingView } from '../contracts/forwarding';
import type { OrganizationView } from '../contracts/organization';
import type { Actor } from '../graph/common/context';
import type { Services } from '../graph/services';

/** What the HTTP request under a GraphQL operation offers its resolvers. */
export interface GraphqlTransport {
  /** The address the request came from (forwarded-for only from trusted proxies), for login throttling. */
  clientAddress: string;
  /** Sets (a token) or clears (null) the console session cookie on the HTTP answer. */
  setSessionCookie(token: string | null, expiresAt?: Date): void;
  /** The HTTP request's id (x-request-id), when the operation came over HTTP. */
  requestId?: string;
}

/** Batched loads of one operation, as its actor may see them: many references cost one query. */
export interface GraphqlLoaders {
  /** Organisations by hash id (entity references from other subgraphs). */
  organization: DataLoader<string, OrganizationView>;
  /** Device groups by hash id (staff only, as over REST). */
  deviceGroup: DataLoader<string, DeviceGroupView>;
  /** The forwardings of device groups, by group hash id (DeviceGroup.messageDestinations). */
  groupForwardings: DataLoader<string, GroupForwardingView[]>;
  /** Names of devices that partnerships list, by device hash id; null for one outside the partnerships the actor may see. */
  partnershipDeviceName: DataLoader<string, string | null>;
}

/** What every GraphQL resolver of every subgraph receives: who is acting, the services, the transport and the loaders. */
export interface GraphqlContext {
  actor: Actor;
  /** The id of the HTTP request this operation serves (its x-request-id), the same in every subgraph; null without one. */
  requestId: string | null;
  services: Services;
  transport: GraphqlTransport;
  loaders: GraphqlLoaders;
}

/** The transport of an operation run in process, without HTTP: there is no cookie to set. */
export function inProcessTransport(clientAddress = '127.0.0.1'): GraphqlTransport {
  return { clientAddress, setSessionCookie: () => undefined };
}

/** A fresh context for one operation (loaders cache within it only). */
export function createGraphqlContext(actor: Actor, services: Services, transport: GraphqlTransport = inProcessTransport()): GraphqlContext {
  return {
    actor,
    requestId: transport.requestId ?? null,
    services,
    transport,
    loaders: {
      organization: new DataLoader<string, OrganizationView>(async (hashIds) => {
        const ids = hashIds.map((hashId) => services.organizations.idOf(hashId));
        const visible = await services.organizations.visibleByIds(actor, ids);
        return ids.map((id, index) => visible.get(id) ?? new GridportError('not_found', { organizationHashId: hashIds[index] }));
      }),
      deviceGroup: new DataLoader<string, DeviceGroupView>(async (hashIds) => {
        const ids = hashIds.map((hashId) => services.hashIds.decode('deviceGroup', hashId) ?? -1);
        const groups = await services.deviceGroups.byIds(actor, ids);
        return ids.map((id, index) => groups.get(id) ?? new GridportError('not_found', { deviceGroupHashId: hashIds[index] }));
      }),
      groupForwardings: new DataLoader<string, GroupForwardingView[]>(async (hashIds) => {
        const byGroup = await services.groupForwarding.ofGroups(actor, hashIds);
        return hashIds.map((hashId) => byGroup.get(hashId) ?? []);
      }),
      partnershipDeviceName: new DataLoader<string, string | null>(async (hashIds) => {
        const names = await services.partnerships.listedDeviceNames(actor, hashIds);
        return hashIds.map((hashId) => names.get(hashId) ?? null);
      }),
    },
  };
}
