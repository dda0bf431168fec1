import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Agent } from '../edge/agent/agent';
import type { AgentLog } from '../edge/agent/journal';
import { startEdgeAgent } from '../edge/agent/run';
import { loadIdentity } from '../edge/gateway-client/provision';
import { startEvChargingSite, startRealFamilySite, startSolarBatterySite, startWindSite, type DemoSite } from '../edge/simulators/sites';
import { systemActor } from '../graph/common/context';
import { sameJson } from '../graph/common/diff';
import type { Services } from '../graph/services';
import type { Logger } from './logger';
import { version } from './version';

/** The site each demo device runs, in the order ensureDemoFleet makes them. */
export const demoSiteStarters = [startWindSite, startSolarBatterySite, startEvChargingSite, startRealFamilySite] as const;

export interface DemoGateways {
  sites: DemoSite[];
  agents: Agent[];
  close(): Promise<void>;
}

/**
 * The demo fleet's gateways (DESIGN.md "Run modes"): for each demo device, a Modbus simulator of
 * its site (edge/simulators/sites.ts) and the real edge agent in this process, provisioned once
 * (its identity kept under `<data>/demo-gateways/<hash id>`) and connected to this server like
 * any gateway. The device's config is the site's, pointing at this start's simulator port, so
 * the console shows live devices at once.
 */
export async function startDemoGateways({
  services,
  deviceHashIds,
  baseUrl,
  dataDir,
  log,
}: {
  services: Services;
  deviceHashIds: readonly string[];
  baseUrl: string;
  dataDir: string;
  log: Logger;
}): Promise<DemoGateways> {
  const actor = systemActor('demo fleet');
  const sites: DemoSite[] = [];
  const agents: Agent[] = [];
  const close = async () => {
    await Promise.all(agents.map((agent) => agent.stop()));
    await Promise.all(sites.map((site) => site.close()));
  };
  try {
    for (const [index, start] of demoSiteStarters.entries()) {
      const hashId = deviceHashIds[index];
      if (hashId === undefined) {
        break;
      }
      const device = await services.devices.find(actor, hashId);
      const site = await startOnPreviousPort(start, device.config);
      sites.push(site);
      if (!sameJson(device.config, site.config)) {
        await services.devices.update(actor, hashId, { config: site.config });
      }
      const stateDirectory = path.join(dataDir, 'demo-gateways', hashId);
      const token = await provisioningTokenIfNeeded(services, hashId, stateDirectory);
      const gatewayLog: AgentLog = (level, message, details) => log[level]({ demoGateway: site.name, deviceHashId: hashId, ...details }, message);
      agents.push(
        await startEdgeAgent({ hub: baseUrl, token, identifier: `demo-${site.name}-${hashId.toLowerCase()}`, stateDirectory, log: gatewayLog, version }),
      );
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { sites, agents, close };
}

/**
 * The site with its simulator on the port the device's config already names (the previous
 * start's), so that a restart leaves the config, its audit trail and the outbox as they are; on a
 * free port when there is none or it is taken.
 */
async function startOnPreviousPort(start: (typeof demoSiteStarters)[number], config: unknown): Promise<DemoSite> {
  const communication = (config as { assets?: { communication?: { type?: unknown; ip?: unknown; port?: unknown } }[] } | null)?.assets?.[0]?.communication;
  if (communication?.type === 'tcp' && communication.ip === '127.0.0.1' && typeof communication.port === 'number') {
    try {
      return await start({ port: communication.port });
    } catch {
      // Taken by something else since: a free port, and the config follows.
    }
  }
  return start();
}

/**
 * A new provisioning token when the gateway has no identity this database knows (a first start,
 * or a data folder whose database was replaced); undefined when the kept identity still proves
 * the device.
 */
async function provisioningTokenIfNeeded(services: Services, hashId: string, stateDirectory: string): Promise<string | undefined> {
  const identityDirectory = path.join(stateDirectory, 'identity');
  if (existsSync(path.join(identityDirectory, 'cert.pem'))) {
    const identity = await loadIdentity(identityDirectory);
    if (await services.provisioning.verifyDeviceCertificate(identity.certificatePem)) {
      return undefined;
    }
    await rm(stateDirectory, { recursive: true, force: true });
  }
  return (await services.devices.reopenProvisioning(systemActor('demo fleet'), hashId)).provisioningToken;
}
