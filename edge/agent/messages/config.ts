import { toJson, agentErrorCodes } from '../reporter';
import { errorText } from '../journal';
import { defaultDeviceConfig } from '../runtime';
import { hostFailureText, hostOutcomeReports } from '../../network/host-reports';
import type { MessageHandlers } from './context';

/**
 * setConfig: runs a valid config, stores and reports it; one that cannot run is answered with
 * config_not_applied and the previous one runs again. The gateway's network and VPN change
 * first (edge/network): a change rolled back because the cloud became unreachable, or one whose
 * secrets this gateway cannot open, is answered with config_not_applied and nothing else changes.
 */
export const configHandlers: Pick<MessageHandlers, 'setConfig'> = {
  setConfig: async ({ id, message: { config }, agent, fail }) => {
    const host = agent.host === null ? null : await agent.host.change(config);
    if (host !== null && (host.kind === 'rolledBack' || host.kind === 'refused')) {
      return fail(agentErrorCodes.configNotApplied, hostFailureText(host));
    }
    const previous = agent.runtime()?.config ?? defaultDeviceConfig;
    let unsupported;
    try {
      unsupported = await agent.run(config);
    } catch (error) {
      const reason = errorText(error);
      agent.log('error', 'a config could not be run; the previous one runs again', { error: reason });
      // The hub still knows the previous config, so what of it cannot run may be reported at once.
      for (const report of await agent.run(previous)) {
        await agent.reporter.send(report);
      }
      await agent.reporter.send(
        agent.reporter.error(agentErrorCodes.configNotApplied, `The config could not be run: ${reason}`, { messageId: id, messageType: 'setConfig' }),
      );
      return true;
    }
    await agent.state.writeConfig(config);
    await agent.reporter.send({ type: 'config', at: agent.reporter.at(), observations: { messageId: id, source: 'cloud', config: toJson(config) } });
    for (const report of unsupported) {
      await agent.reporter.send(report);
    }
    for (const report of host === null ? [] : hostOutcomeReports(host, agent.reporter, false)) {
      await agent.reporter.send(report);
    }
    agent.log('info', 'config from the cloud applied', { assets: config.assets.length, loops: config.activeControl.length });
    return true;
  },
};
