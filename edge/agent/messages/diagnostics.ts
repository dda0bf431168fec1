import { errorText } from '../journal';
import { agentErrorCodes } from '../reporter';
import { readRoutingTable, readSignalQuality, scanNetwork } from '../system';
import type { MessageHandlers } from './context';

/** What an operator asks to look into the gateway: a ping, its journal, its modem, routes and network, a tunnel; and the protocol's ack. */
export const diagnosticHandlers: Pick<
  MessageHandlers,
  'debugPing' | 'getJournal' | 'getSignalQuality' | 'getRoutingTable' | 'scanNetwork' | 'openTunnel' | 'ack'
> = {
  debugPing: async ({ id, message, agent }) => {
    // The ack report is the echo.
    await agent.reporter.send({
      type: 'ack',
      at: agent.reporter.at(),
      observations: { messageId: id, messageType: message.type, ...(message.payload === undefined ? {} : { payload: message.payload }) },
    });
    return false;
  },
  getJournal: async ({ id, message, agent }) => {
    await agent.reporter.send({ type: 'journal', at: agent.reporter.at(), observations: { messageId: id, lines: agent.journal.tail(message.lines) } });
    return true;
  },
  getSignalQuality: async ({ id, agent, fail }) => {
    const signal = await readSignalQuality(agent.system.run);
    if (!signal) {
      return fail(agentErrorCodes.noModem, 'This gateway has no cellular modem (ModemManager lists none).');
    }
    await agent.reporter.send({ type: 'signalQuality', at: agent.reporter.at(), observations: { messageId: id, ...signal } });
    return true;
  },
  getRoutingTable: async ({ id, agent }) => {
    await agent.reporter.send({ type: 'routingTable', at: agent.reporter.at(), observations: { messageId: id, routes: await readRoutingTable(agent.system) } });
    return true;
  },
  scanNetwork: async ({ id, agent }) => {
    await agent.reporter.send({ type: 'networkScan', at: agent.reporter.at(), observations: { messageId: id, hosts: await scanNetwork(agent.system) } });
    return true;
  },
  openTunnel: async ({ message, agent, fail }) => {
    try {
      await agent.parts.openTunnel({ ...agent.connection, tunnelId: message.tunnelId, destination: message.destination, log: agent.log });
    } catch (error) {
      return fail(agentErrorCodes.tunnelFailed, `The tunnel to ${message.destination} could not be opened: ${errorText(error)}`);
    }
    return true;
  },
  ack: () => Promise.resolve(true),
};
