import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArpTable, parseIpv4Routes, parseIpv6Routes, readSignalQuality, scanNetwork, defaultSystemProbes, type CommandRunner } from './system';

const ipv4Routes = `Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
eth0\t00000000\t010AA8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0
eth0\t000AA8C0\t00000000\t0001\t0\t0\t100\t00FFFFFF\t0\t0\t0
wwan0\t0000140A\tFE0AA8C0\t0003\t0\t0\t700\t0000FFFF\t0\t0\t0
`;
const ipv6Routes = `fe800000000000000000000000000000 40 00000000000000000000000000000000 00 00000000000000000000000000000000 00000100 00000001 00000000 00000001     eth0
00000000000000000000000000000000 00 00000000000000000000000000000000 00 fe800000000000000000000000000001 00000400 00000001 00000000 00000003     eth0
`;
const arp = `IP address       HW type     Flags       HW address            Mask     Device
192.168.10.1     0x1         0x2         aa:bb:cc:00:11:22     *        eth0
192.168.10.9     0x1         0x0         00:00:00:00:00:00     *        eth0
192.168.10.21    0x1         0x2         aa:bb:cc:00:11:23     *        eth0
`;

describe('what the agent reads of its gateway', () => {
  it('parses the IPv4 routing table: destination with prefix, the gateway when not on-link, interface and metric', () => {
    expect(parseIpv4Routes(ipv4Routes)).toEqual([
      { destination: '0.0.0.0/0', gateway: '192.168.10.1', interface: 'eth0', metric: 100 },
      { destination: '192.168.10.0/24', interface: 'eth0', metric: 100 },
      { destination: '10.20.0.0/16', gateway: '192.168.10.254', interface: 'wwan0', metric: 700 },
    ]);
  });

  it('parses the IPv6 routing table into short addresses', () => {
    expect(parseIpv6Routes(ipv6Routes)).toEqual([
      { destination: 'fe80::/64', interface: 'eth0', metric: 256 },
      { destination: '::/0', gateway: 'fe80::1', interface: 'eth0', metric: 1024 },
    ]);
  });

  it('takes complete ARP entries only', () => {
    expect(parseArpTable(arp)).toEqual([
      { address: '192.168.10.1', mac: 'aa:bb:cc:00:11:22' },
      { address: '192.168.10.21', mac: 'aa:bb:cc:00:11:23' },
    ]);
  });

  it('reads the modem through mmcli, and answers null when there is none', async () => {
    const outputs: Record<string, string> = {
      '-L --output-keyvalue': 'modem-list.length   : 1\nmodem-list.value[1] : /org/freedesktop/ModemManager1/Modem/0\n',
      '-m /org/freedesktop/ModemManager1/Modem/0 --output-keyvalue': 'modem.3gpp.operator-name : KPN\nmodem.generic.access-technologies.value[1] : lte\n',
      '-m /org/freedesktop/ModemManager1/Modem/0 --signal-get --output-keyvalue':
        'modem.signal.lte.rssi : -65.00\nmodem.signal.lte.rsrp : -95.00\nmodem.signal.lte.rsrq : -11.00\nmodem.signal.lte.snr : 12.50\n',
    };
    const calls: string[] = [];
    const run: CommandRunner = (program, args) => {
      calls.push(`${program} ${args.join(' ')}`);
      const output = outputs[args.join(' ')];
      return output === undefined ? Promise.reject(new Error('unexpected')) : Promise.resolve(output);
    };
    expect(await readSignalQuality(run)).toEqual({ technology: 'lte', operator: 'KPN', rssi: -65, rsrp: -95, rsrq: -11, sinr: 12.5 });
    expect(calls).toHaveLength(3);
    expect(await readSignalQuality(() => Promise.reject(Object.assign(new Error('spawn mmcli ENOENT'), { code: 'ENOENT' })))).toBeNull();
    expect(await readSignalQuality(() => Promise.resolve('modem-list.length : 0\n'))).toBeNull();
  });

  describe('scanning the network', () => {
    let server: Server;
    let port: number;
    let folder: string;

    beforeAll(async () => {
      server = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      port = typeof address === 'object' && address ? address.port : 0;
      folder = mkdtempSync(path.join(tmpdir(), 'gridport-scan-'));
      writeFileSync(path.join(folder, 'arp'), arp);
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(folder, { recursive: true, force: true });
    });

    it('lists the ARP neighbours and the addresses of the local /24 where the port answers', async () => {
      const hosts = await scanNetwork({
        ...defaultSystemProbes,
        arpFile: path.join(folder, 'arp'),
        scanNetworks: () => ['127.0.0'],
        scanPorts: [port],
        probeTimeoutMs: 300,
      });
      expect(hosts).toEqual([
        { address: '192.168.10.1', mac: 'aa:bb:cc:00:11:22' },
        { address: '192.168.10.21', mac: 'aa:bb:cc:00:11:23' },
        { address: '127.0.0.1', openPorts: [port] },
      ]);
    });

    it('starts no probe after its time bound', async () => {
      let now = 0;
      const hosts = await scanNetwork(
        { ...defaultSystemProbes, arpFile: path.join(folder, 'none'), scanNetworks: () => ['127.0.0'], scanPorts: [port], scanTimeMs: 0 },
        () => now++,
      );
      expect(hosts).toEqual([]);
    });
  });
});
