import type { BrowseCommand } from '../../../contracts/device/commands';
import { executedOPCXMLDACommandReport, executedVestasAPCommandReport } from '../../opc/command';
import { urlOf } from '../connections';
import { agentErrorCodes } from '../reporter';
import type { MessageHandlers } from './context';

/** The asset type whose Vestas AP interface executeVestasAPCommand reaches (device-model.md section 3.3). */
const vestasApType = 'vestas-ap';

/** Requests to field devices the cloud hands through the gateway: Modbus, OPC XML-DA, Vestas AP. */
export const fieldCommandHandlers: Pick<MessageHandlers, 'executeModbusCommand' | 'executeOPCXMLDACommand' | 'executeVestasAPCommand'> = {
  /** One request through the link pool of the running config (a pool of its own when none runs). */
  executeModbusCommand: async ({ id, message, agent }) => {
    const runtime = agent.runtime();
    const links = runtime?.links ?? agent.parts.createLinks(agent.log);
    try {
      const report = await agent.parts.executeModbusCommand(links, message, id, new Date(agent.clock.now()));
      await agent.reporter.send(report);
      return report.observations.error === undefined;
    } finally {
      const now = agent.runtime();
      if (!now || now.links !== links) {
        // A pool made for this one command (no config runs) goes with it.
        await links.close();
      }
    }
  },
  /** One OPC XML-DA request to the message's url (edge/opc); answered in executedOPCXMLDACommand, acknowledged when no item was refused. */
  executeOPCXMLDACommand: async ({ id, message, agent }) => {
    const report = await executedOPCXMLDACommandReport(message, id, new Date(agent.clock.now()));
    await agent.reporter.send(report);
    return report.observations.error === undefined;
  },
  /** The same over the url connection of a vestas-ap asset of the running config, within its readTimeout or writeTimeout. */
  executeVestasAPCommand: async ({ id, message, agent, fail }) => {
    const index = message.assetIndex;
    const asset = agent.runtime()?.config.assets[index];
    if (asset === undefined) {
      return fail(agentErrorCodes.unknownAsset, `No asset at index ${index}.`);
    }
    if (asset.type !== vestasApType) {
      return fail(
        agentErrorCodes.noVestasApClient,
        `Asset ${index} (${asset.type}) is not a ${vestasApType} asset; only those answer Vestas AP commands.`,
        index,
      );
    }
    const url = urlOf(asset.communication);
    if (url === null) {
      return fail(agentErrorCodes.noVestasApClient, `Asset ${index} (${asset.type}) has no url connection to reach its Vestas AP interface.`, index);
    }
    const report = await executedVestasAPCommandReport(index, asset, url, message.command as BrowseCommand, id, new Date(agent.clock.now()));
    await agent.reporter.send(report);
    return report.observations.error === undefined;
  },
};
