import { agentErrorCodes } from '../reporter';
import type { MessageHandlers } from './context';

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
  executeOPCXMLDACommand: ({ fail }) => fail(agentErrorCodes.noOpcXmlDaClient, 'This agent has no OPC XML-DA client.'),
  executeVestasAPCommand: ({ message, fail }) => fail(agentErrorCodes.noVestasApClient, 'This agent has no Vestas AP client.', message.assetIndex),
};
