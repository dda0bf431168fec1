import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../graph/common/secret-box';
import { until } from '../../test-support/until';
import type { HostNetwork } from './host-network';
import { createHostNetwork, hostNetworkFiles } from './index';
import { labCloud, NetnsLab, netnsUnavailable } from './test-support/netns-lab';
import { NmcliBackend, type NetworkConfig } from './nmcli';
import { tcpReachable } from './reachability';

const unavailable = netnsUnavailable();
const describeInNetns = unavailable === null ? describe : describe.skip;
if (unavailable !== null) {
  // eslint-disable-next-line no-console -- the reason a suite is skipped belongs in the run's output
  console.warn(`host-network tests skipped: ${unavailable}`);
}

jest.setTimeout(120_000);

const dhcp: NetworkConfig = { eth0: { type: 'dhcp' }, eth1: null, routeData: [] };
const onCloudSubnet: NetworkConfig = {
  eth0: { type: 'static', ip: '10.77.0.2', routingPrefix: 24, gateway: labCloud.address },
  eth1: null,
  dns: { servers: ['10.77.0.53', '10.77.0.54'], ignoreAuto: true, priority: 50 },
  routeMetric: 300,
  routeData: [{ dest: '10.20.0.0', prefix: 16, nextHop: '10.77.0.254', metric: 50 }],
};
const offCloudSubnet: NetworkConfig = { eth0: { type: 'static', ip: '10.99.0.2', routingPrefix: 24, gateway: '10.99.0.1' }, eth1: null, routeData: [] };

describeInNetns('the gateway network through a real NetworkManager in a namespace', () => {
  const lab = new NetnsLab();
  const logs: string[] = [];
  let clockNow = Date.parse('2026-11-28T12:00:00');
  let host: HostNetwork;
  const secretKey = randomBytes(32).toString('hex');
  const vpnFiles: Record<string, string> = {};

  const makeHost = async (overrides: { secretKey?: string } = {}): Promise<HostNetwork> => {
    writeFileSync(lab.file(hostNetworkFiles.secretKey), `${overrides.secretKey ?? secretKey}\n`, { mode: 0o600 });
    return createHostNetwork({
      stateDirectory: lab.directory,
      baseUrl: `http://${labCloud.address}:${labCloud.hubPort}`,
      log: (level, message) => void logs.push(`${level}: ${message}`),
      commands: lab.commands,
      interfaces: { eth0: lab.gatewayInterface, eth1: `${lab.gatewayInterface}x` },
      rollbackAfterMs: 6000,
      probeEveryMs: 500,
      vpnUpWithinMs: 20_000,
      now: () => clockNow,
    });
  };
  const addressesOfEth0 = async () => (await lab.inGateway('ip', '-4', '-o', 'addr', 'show', 'dev', lab.gatewayInterface)).trim();
  const hubReachable = () => tcpReachable(labCloud.address, labCloud.hubPort, 2000, lab.commands);

  beforeAll(async () => {
    await lab.start();
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: lab.directory, stdio: 'pipe' });
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=lab-ca', '-days', '2');
    for (const [name, usage] of [
      ['server', 'serverAuth'],
      ['client', 'clientAuth'],
    ] as const) {
      writeFileSync(lab.file(`${name}.ext`), `extendedKeyUsage=${usage}\nkeyUsage=digitalSignature,keyAgreement\n`);
      openssl('req', ...ec, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`);
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        'ca.pem',
        '-CAkey',
        'ca.key',
        '-CAcreateserial',
        '-out',
        `${name}.pem`,
        '-days',
        '2',
        '-extfile',
        `${name}.ext`,
      );
    }
    execFileSync('openvpn', ['--genkey', 'secret', lab.file('tls-crypt.key')], { stdio: 'pipe' });
    for (const name of ['ca.pem', 'client.pem', 'client.key', 'tls-crypt.key']) {
      vpnFiles[name] = readFileSync(lab.file(name), 'utf8');
    }
    await lab.startVpnServer({ ca: lab.file('ca.pem'), cert: lab.file('server.pem'), key: lab.file('server.key'), tlsCrypt: lab.file('tls-crypt.key') });
    // A profile the agent does not own, on the same interface: it must survive everything below.
    await lab.nmcli(
      'connection',
      'add',
      'type',
      'ethernet',
      'ifname',
      lab.gatewayInterface,
      'con-name',
      'technician',
      'autoconnect',
      'no',
      'ipv4.method',
      'disabled',
    );
    host = await makeHost();
  });

  afterAll(async () => {
    await host?.close();
    await lab.stop();
  });

  it('brings eth0 up by DHCP through a gridport-eth0 profile and finds the cloud', async () => {
    const outcome = await host.change({ network: dhcp });
    expect(outcome).toEqual({ kind: 'applied', warnings: [] });
    expect(await addressesOfEth0()).toMatch(/inet 10\.77\.0\.(5\d|60)\/24/);
    expect(await lab.nmcli('--terse', '--fields', 'NAME', 'connection', 'show')).toMatch(/^gridport-eth0$/m);
    expect(JSON.parse(readFileSync(lab.file(hostNetworkFiles.applied), 'utf8'))).toEqual({ network: dhcp, vpn: null });
  });

  it('sets a static address, DNS, the route metric and a route, and leaves the same settings alone', async () => {
    expect(await host.change({ network: onCloudSubnet })).toEqual({ kind: 'applied', warnings: [] });
    expect(await addressesOfEth0()).toMatch(/inet 10\.77\.0\.2\/24/);
    const routes = await lab.inGateway('ip', '-4', 'route', 'show', 'dev', lab.gatewayInterface);
    expect(routes).toMatch(/^default via 10\.77\.0\.1 proto static metric 300/m);
    expect(routes).toMatch(/^10\.20\.0\.0\/16 via 10\.77\.0\.254 proto static metric 50/m);
    const shown = await lab.nmcli('--get-values', 'ipv4.dns,ipv4.ignore-auto-dns,ipv4.dns-priority', 'connection', 'show', 'gridport-eth0');
    expect(shown.trim().split('\n')).toEqual(['10.77.0.53,10.77.0.54', 'yes', '50']);
    const before = await lab.nmcli('--get-values', 'connection.timestamp', 'connection', 'show', 'gridport-eth0');
    expect(await host.change({ network: structuredClone(onCloudSubnet) })).toEqual({ kind: 'unchanged' });
    expect(await lab.nmcli('--get-values', 'connection.timestamp', 'connection', 'show', 'gridport-eth0')).toBe(before);
  });

  it('rolls a static address off the cloud subnet back to the previous profile once the cloud stays unreachable', async () => {
    const outcome = await host.change({ network: offCloudSubnet });
    expect(outcome).toEqual({ kind: 'rolledBack', reason: 'the cloud was not reachable within 6 s after the change', restored: true });
    expect(await addressesOfEth0()).toMatch(/inet 10\.77\.0\.2\/24/);
    expect(await hubReachable()).toBe(true);
    expect(host.current?.network).toEqual(onCloudSubnet);
    expect(logs).toContain('error: network change rolled back: the cloud was not reachable within 6 s after the change');
  });

  it('waits for the maintenance window, then carries the change out inside it', async () => {
    const window = { start: '02:00', end: '04:00' };
    expect(await host.change({ network: dhcp, maintenanceWindow: window })).toEqual({ kind: 'pending', window });
    expect(await addressesOfEth0()).toMatch(/inet 10\.77\.0\.2\/24/);
    expect(await host.runPendingIfDue()).toBeNull();
    clockNow = Date.parse('2026-11-29T02:30:00');
    expect(await host.runPendingIfDue()).toEqual({ kind: 'applied', warnings: [] });
    expect(host.isPending).toBe(false);
    expect(await addressesOfEth0()).toMatch(/inet 10\.77\.0\.(5\d|60)\/24/);
  });

  it('brings the OpenVPN tunnel up from sealed credentials and reaches the cloud through it', async () => {
    const box = new SecretBox(secretKey);
    const vpn = {
      host: labCloud.address,
      port: labCloud.vpnPort,
      credentials: {
        ca: vpnFiles['ca.pem'] ?? '',
        cert: vpnFiles['client.pem'] ?? '',
        key: box.seal(vpnFiles['client.key'] ?? ''),
        tlsCrypt: box.seal(vpnFiles['tls-crypt.key'] ?? ''),
      },
    };
    const outcome = await host.change({ network: dhcp, vpn });
    expect(outcome).toEqual({ kind: 'applied', warnings: [] });
    await until('the tunnel address', async () => /inet 10\.8\.0\.\d+\/24/.test(await lab.inGateway('ip', '-4', '-o', 'addr')), 10_000);
    expect(await tcpReachable(labCloud.vpnServerAddress, labCloud.hubPort, 2000, lab.commands)).toBe(true);
    const written = readFileSync(lab.file(`${hostNetworkFiles.vpn}/gridport.conf`), 'utf8');
    expect(written).toContain(`remote ${labCloud.address} ${labCloud.vpnPort}`);
    expect(written).toContain((vpnFiles['client.key'] ?? '').trim());
  });

  it('refuses credentials sealed with another key and touches nothing', async () => {
    const other = new SecretBox(randomBytes(32).toString('hex'));
    const vpn = { host: labCloud.address, port: labCloud.vpnPort, credentials: { ca: 'x', cert: 'y', key: other.seal('z') } };
    const profiles = await lab.nmcli('--terse', '--fields', 'NAME,UUID', 'connection', 'show');
    expect(await host.change({ network: onCloudSubnet, vpn })).toEqual({
      kind: 'refused',
      reason: 'the VPN secret key cannot be read: it was not sealed with this gateway secret key, or it was changed',
    });
    expect(await lab.nmcli('--terse', '--fields', 'NAME,UUID', 'connection', 'show')).toBe(profiles);
    expect(await addressesOfEth0()).toMatch(/inet 10\.77\.0\.(5\d|60)\/24/);
  });

  it('stops the tunnel and deletes its own profiles for a network without eth0, keeping the technician profile', async () => {
    await host.close();
    // The network without eth0 cuts the cloud off: the rollback brings back DHCP and the tunnel.
    const outcome = await new NmcliBackend({ ...lab.commands, interfaces: { eth0: lab.gatewayInterface, eth1: 'none0' } }).apply({
      eth0: null,
      eth1: null,
      routeData: [],
    });
    expect(outcome).toEqual([]);
    const names = (await lab.nmcli('--terse', '--fields', 'NAME', 'connection', 'show')).trim().split('\n');
    expect(names).toEqual(['technician']);
    expect(await hubReachable()).toBe(false);
  });
});
