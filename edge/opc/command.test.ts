import { createServer } from 'node:net';
import type { BrowseCommand } from '../../contracts/device/commands';
import { startOpcXmlDaServer, type OpcXmlDaServer } from '../simulators/opc-xml-da-server';
import { executeBrowseCommand, executedOPCXMLDACommandReport } from './command';

// Generous: a loaded machine must not turn an answer into a timeout.
const timeouts = { readMs: 10_000, writeMs: 10_000 };

/** A small park: a branch per turbine, live and writable items, an item with children, one of uncertain quality. */
function parkItems() {
  return {
    'Park/ActivePower': { dataType: 'double' as const, value: () => 1234.5, engineeringUnits: 'kW', description: 'Park active power' },
    'Park/PowerLimit': { dataType: 'double' as const, value: 3000, writable: true, engineeringUnits: 'kW' },
    'Park/PowerLimit/Enabled': { dataType: 'boolean' as const, value: false, writable: true },
    'Park/Turbine1/State': { dataType: 'int' as const, value: 2 },
    'Park/Turbine2/State': { dataType: 'int' as const, value: 5, quality: 'uncertain' },
    'Park/Turbine3/State': { dataType: 'int' as const, value: 2 },
    'Park/Name': { dataType: 'string' as const, value: 'Windpark <Noord> & Zuid', writable: true },
  };
}

describe('browse-style commands against an OPC XML-DA 1.01 server', () => {
  let server: OpcXmlDaServer;
  const run = (command: BrowseCommand, given = timeouts) => executeBrowseCommand(server.url, command, given);

  beforeEach(async () => {
    // Two elements a browse at most: the client has to follow continuation points.
    server = await startOpcXmlDaServer({ items: parkItems(), maxElementsReturned: 2, vendorInfo: 'Test park server' });
  });

  afterEach(async () => {
    await server.close();
  });

  it('getStatus answers the server status field by field', async () => {
    const result = await run({ type: 'getStatus' });
    expect(result.error).toBeUndefined();
    expect(result.items?.map((item) => [item.name, item.name === 'startTime' ? typeof item.value : item.value])).toEqual([
      ['serverState', 'running'],
      ['startTime', 'string'],
      ['productVersion', '1.0.0'],
      ['statusInfo', 'running'],
      ['vendorInfo', 'Test park server'],
      ['supportedLocaleIDs', 'en-us'],
      ['supportedInterfaceVersions', 'XML_DA_Version_1_0'],
    ]);
    expect(server.operations).toEqual(['GetStatus']);
  });

  it('browse gathers every child over continuation points, branches and items told apart', async () => {
    const result = await run({ type: 'browse', itemName: 'Park' });
    expect(result).toEqual({
      items: [
        { name: 'Park/ActivePower', value: 'item' },
        { name: 'Park/PowerLimit', value: 'item with children' },
        { name: 'Park/Turbine1', value: 'branch' },
        { name: 'Park/Turbine2', value: 'branch' },
        { name: 'Park/Turbine3', value: 'branch' },
        { name: 'Park/Name', value: 'item' },
      ],
    });
    expect(server.operations).toEqual(['Browse', 'Browse', 'Browse']);
    expect(await run({ type: 'browse', itemName: '' })).toEqual({ items: [{ name: 'Park', value: 'branch' }] });
  });

  it('a browse of an unknown branch is answered with the SOAP fault as an invalid request', async () => {
    expect(await run({ type: 'browse', itemName: 'Park/Turbine9' })).toEqual({
      error: 'invalidRequest: Browse: SOAP fault E_UNKNOWNITEMNAME: The item name is not known in the server address space. (Park/Turbine9)',
    });
  });

  it('getProperties answers each property of each item; an unknown item is named in the error', async () => {
    const result = await run({ type: 'getProperties', names: ['Park/ActivePower', 'Park/Nothing'] });
    expect(result.items?.filter((item) => !item.name.endsWith('#timestamp'))).toEqual([
      { name: 'Park/ActivePower#dataType', value: 'xsd:double' },
      { name: 'Park/ActivePower#value', value: '1234.5' },
      { name: 'Park/ActivePower#quality', value: 'good' },
      { name: 'Park/ActivePower#accessRights', value: 'readable' },
      { name: 'Park/ActivePower#description', value: 'Park active power' },
      { name: 'Park/ActivePower#engineeringUnits', value: 'kW' },
      { name: 'Park/Nothing', value: null, quality: 'E_UNKNOWNITEMNAME' },
    ]);
    expect(result.error).toBe('E_UNKNOWNITEMNAME on Park/Nothing: The item name is not known in the server address space.');
  });

  it('read answers values as text with their quality; an unknown item keeps its place with its OPC error', async () => {
    const result = await run({
      type: 'read',
      names: ['Park/ActivePower', 'Park/Turbine2/State', 'Park/Name', 'Park/Turbine9/State', 'Park/PowerLimit/Enabled'],
    });
    expect(result).toEqual({
      items: [
        { name: 'Park/ActivePower', value: '1234.5', quality: 'good' },
        { name: 'Park/Turbine2/State', value: '5', quality: 'uncertain' },
        { name: 'Park/Name', value: 'Windpark <Noord> & Zuid', quality: 'good' },
        { name: 'Park/Turbine9/State', value: null, quality: 'E_UNKNOWNITEMNAME' },
        { name: 'Park/PowerLimit/Enabled', value: 'false', quality: 'good' },
      ],
      error: 'E_UNKNOWNITEMNAME on Park/Turbine9/State: The item name is not known in the server address space.',
    });
  });

  it('write sets writable items of each type and refuses read-only items and values of the wrong type', async () => {
    const result = await run({
      type: 'write',
      items: [
        { name: 'Park/PowerLimit', valueType: 'double', value: 2500.25 },
        { name: 'Park/PowerLimit/Enabled', valueType: 'boolean', value: true },
        { name: 'Park/Name', valueType: 'string', value: 'A & B' },
        { name: 'Park/ActivePower', valueType: 'double', value: 1 },
        { name: 'Park/Turbine1/State', valueType: 'integer', value: 3 },
      ],
    });
    expect(result.items).toEqual([
      { name: 'Park/PowerLimit', value: '2500.25', quality: 'good' },
      { name: 'Park/PowerLimit/Enabled', value: 'true', quality: 'good' },
      { name: 'Park/Name', value: 'A & B', quality: 'good' },
      { name: 'Park/ActivePower', value: null, quality: 'E_READONLY' },
      { name: 'Park/Turbine1/State', value: null, quality: 'E_READONLY' },
    ]);
    expect(result.error).toBe(
      'E_READONLY on Park/ActivePower: The item is read-only and cannot be written.; E_READONLY on Park/Turbine1/State: The item is read-only and cannot be written.',
    );
    expect([server.value('Park/PowerLimit'), server.value('Park/PowerLimit/Enabled'), server.value('Park/Name')]).toEqual([2500.25, true, 'A & B']);

    const badType = await run({ type: 'write', items: [{ name: 'Park/PowerLimit', valueType: 'string', value: 'lots' }] });
    expect(badType).toEqual({
      items: [{ name: 'Park/PowerLimit', value: null, quality: 'E_BADTYPE' }],
      error: 'E_BADTYPE on Park/PowerLimit: The value cannot be converted to the data type of the item.',
    });
    expect(server.value('Park/PowerLimit')).toBe(2500.25);
  });

  it('a server that does not answer within the timeout gives a timeout', async () => {
    server.stall = true;
    expect(await run({ type: 'read', names: ['Park/ActivePower'] }, { readMs: 300, writeMs: 300 })).toEqual({
      error: `timeout: no answer from ${server.url} within 300 ms`,
    });
    // The write timeout governs writes.
    expect(await run({ type: 'write', items: [{ name: 'Park/Name', valueType: 'string', value: 'x' }] }, { readMs: 5000, writeMs: 200 })).toEqual({
      error: `timeout: no answer from ${server.url} within 200 ms`,
    });
  });

  it('a server that is not running faults data requests with E_SERVERSTATE, a response error', async () => {
    server.state = 'suspended';
    expect(await run({ type: 'read', names: ['Park/ActivePower'] })).toEqual({
      error: 'responseError: Read: SOAP fault E_SERVERSTATE: The operation could not complete because the server is not running. (suspended)',
    });
    expect((await run({ type: 'getStatus' })).items?.[0]).toEqual({ name: 'serverState', value: 'suspended' });
  });

  it('an endpoint that is not an OPC XML-DA server or not there gives a response or connection error', async () => {
    expect(await executeBrowseCommand(server.url.replace('/opc', '/elsewhere'), { type: 'getStatus' }, timeouts)).toEqual({
      error: 'responseError: GetStatus: HTTP 404 with an answer that is not XML: missing root element',
    });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const address = closed.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    await new Promise((resolve) => closed.close(resolve));
    expect(await executeBrowseCommand(`http://127.0.0.1:${port}/opc`, { type: 'getStatus' }, timeouts)).toEqual({
      error: `connectionError: http://127.0.0.1:${port}/opc could not be reached: ECONNREFUSED`,
    });
  });

  it('an invalid message is answered in the report without a request', async () => {
    const report = await executedOPCXMLDACommandReport(
      { type: 'executeOPCXMLDACommand', connection: { type: 'url', url: server.url }, command: { type: 'read', names: [] } },
      'm-1',
      new Date('2026-11-28T08:00:00Z'),
    );
    expect(report).toEqual({
      type: 'executedOPCXMLDACommand',
      at: '2026-11-28T08:00:00.000Z',
      observations: {
        messageId: 'm-1',
        command: { type: 'read', names: [] },
        error: 'invalidRequest: invalid command: command.names field must have at least 1 items',
      },
    });
    expect(server.operations).toEqual([]);
  });
});
