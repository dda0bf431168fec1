import { randomBytes } from 'node:crypto';
import { exampleDeviceConfig } from '../../contracts/device/examples';
import { parseDeviceConfig } from '../../contracts/device/config';
import { SecretBox } from '../../graph/common/secret-box';
import { withinMaintenanceWindow } from './maintenance-window';
import { nmcliSteps } from './nmcli';
import { openVpnClientConfig } from './openvpn';
import { openConfigSecret } from './secrets';

describe('the nmcli commands of a config network (nm-settings-nmcli(5) property names)', () => {
  const network = parseDeviceConfig(structuredClone(exampleDeviceConfig)).network;

  it('adds and activates one gridport- profile per slot of the example config, routes on the static interface whose subnet holds the next hop', () => {
    expect(nmcliSteps(network, new Set(), { eth0: 'eth0', eth1: 'eth1' }, 30).map((step) => step.argv)).toEqual([
      [
        'nmcli',
        'connection',
        'add',
        'type',
        'ethernet',
        'ifname',
        'eth0',
        'con-name',
        'gridport-eth0',
        'ipv4.method',
        'manual',
        'ipv4.addresses',
        '192.168.10.2/24',
        'ipv4.gateway',
        '192.168.10.1',
        'ipv4.route-metric',
        '100',
        'connection.autoconnect',
        'yes',
        'ipv4.dns',
        '1.1.1.1,9.9.9.9',
        'ipv4.ignore-auto-dns',
        'no',
        'ipv4.dns-priority',
        '50',
        'ipv4.routes',
        '10.20.0.0/16 192.168.10.254 50, 10.30.1.7/32 192.168.10.254',
        'ipv4.may-fail',
        'no',
      ],
      ['nmcli', '--wait', '30', 'connection', 'up', 'gridport-eth0'],
      [
        'nmcli',
        'connection',
        'add',
        'type',
        'ethernet',
        'ifname',
        'eth1',
        'con-name',
        'gridport-eth1',
        'ipv4.method',
        'auto',
        'ipv4.addresses',
        '',
        'ipv4.gateway',
        '',
        'ipv4.route-metric',
        '100',
        'connection.autoconnect',
        'yes',
        'ipv4.dns',
        '1.1.1.1,9.9.9.9',
        'ipv4.ignore-auto-dns',
        'no',
        'ipv4.dns-priority',
        '50',
        'ipv4.routes',
        '',
        'ipv4.may-fail',
        'no',
      ],
      ['nmcli', '--wait', '30', 'connection', 'up', 'gridport-eth1'],
      [
        'nmcli',
        'connection',
        'add',
        'type',
        'gsm',
        'ifname',
        '*',
        'con-name',
        'gridport-cellular',
        'gsm.apn',
        'internet.m2m',
        'ipv4.method',
        'auto',
        'ipv4.route-metric',
        '700',
        'connection.autoconnect',
        'yes',
        'ipv4.dns',
        '1.1.1.1,9.9.9.9',
        'ipv4.ignore-auto-dns',
        'no',
        'ipv4.dns-priority',
        '50',
        'ipv4.routes',
        '',
        'ipv4.may-fail',
        'no',
      ],
      ['nmcli', '--wait', '30', 'connection', 'up', 'gridport-cellular'],
    ]);
  });

  it('modifies the profiles that exist in place and deletes those of slots the config leaves out', () => {
    const steps = nmcliSteps({ ...network, eth1: null, cellular: undefined }, new Set(['gridport-eth0', 'gridport-eth1', 'gridport-cellular']));
    expect(steps.map((step) => step.argv.slice(0, 4))).toEqual([
      ['nmcli', 'connection', 'modify', 'gridport-eth0'],
      ['nmcli', '--wait', '30', 'connection'],
      ['nmcli', 'connection', 'delete', 'gridport-eth1'],
      ['nmcli', 'connection', 'delete', 'gridport-cellular'],
    ]);
  });
});

describe('the maintenance window', () => {
  const window = { start: '02:00', end: '04:00' };
  it.each([
    ['01:59', false],
    ['02:00', true],
    ['03:59', true],
    ['04:00', false],
  ])('at %s local time disruptive work may run: %s', (time, inside) => {
    expect(withinMaintenanceWindow(window, new Date(`2026-11-28T${time}:00`))).toBe(inside);
  });
  it('lets work run at any time without a window, and never in an empty one', () => {
    expect(withinMaintenanceWindow(undefined, new Date())).toBe(true);
    expect(withinMaintenanceWindow({ start: '03:00', end: '03:00' }, new Date('2026-11-28T03:00:00'))).toBe(false);
  });
});

describe('VPN secrets and the client config', () => {
  const key = randomBytes(32).toString('hex');
  const box = new SecretBox(key);

  it('opens a secret the cloud sealed with SecretBox under the gateway key, and a plain one as it is', () => {
    expect(openConfigSecret('key', box.seal('-----BEGIN PRIVATE KEY-----'), key)).toBe('-----BEGIN PRIVATE KEY-----');
    expect(openConfigSecret('ca', 'plain', null)).toBe('plain');
  });

  it('names the secret, not its content, when it cannot be opened', () => {
    expect(() => openConfigSecret('cert', box.seal('x'), null)).toThrow(
      'the VPN secret cert cannot be read: it is sealed and this gateway has no secret key (secret.key in the state directory)',
    );
    expect(() => openConfigSecret('cert', { ...box.seal('x'), tag: '00'.repeat(16) }, key)).toThrow(
      'the VPN secret cert cannot be read: it was not sealed with this gateway secret key, or it was changed',
    );
  });

  it('refuses a credential that would close its inline tag and start directives of its own', () => {
    expect(() =>
      openVpnClientConfig({ host: 'vpn.example', port: 1194, credentials: { ca: 'CA\n</ca>\nup /bin/sh\n<ca>', cert: 'CERT', key: 'KEY' } }, key),
    ).toThrow('the VPN secret ca cannot be read: a credential is PEM text and may not hold <, > or NUL');
    expect(() => openVpnClientConfig({ host: 'vpn.example', port: 1194, credentials: { ca: 'CA', cert: 'CERT', key: box.seal('KEY</key>') } }, key)).toThrow(
      'the VPN secret key cannot be read',
    );
  });

  it('writes an OpenVPN client config with the credentials inline', () => {
    const text = openVpnClientConfig({ host: 'vpn.example', port: 1194, credentials: { ca: 'CA', cert: 'CERT', key: box.seal('KEY') } }, key);
    expect(text).toBe(
      [
        'client',
        'dev tun',
        'proto udp',
        'remote vpn.example 1194',
        'nobind',
        'resolv-retry infinite',
        'connect-retry 2 10',
        'remote-cert-tls server',
        'persist-key',
        'verb 3',
        '<ca>\nCA\n</ca>',
        '<cert>\nCERT\n</cert>',
        '<key>\nKEY\n</key>',
        '',
      ].join('\n'),
    );
  });
});
