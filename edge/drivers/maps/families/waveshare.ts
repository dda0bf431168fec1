/**
 * Waveshare Modbus POE ETH Relay / Modbus RTU Relay boards (relay type waveshare-relay).
 * Source: Waveshare wiki "Modbus POE ETH Relay" / "Modbus RTU Relay", Modbus command
 * reference (function 01 read coils, 05 and 15 write coils; coils 0x0000-0x0007 the relays).
 *
 * One coil per relay channel from 0, as many as the config's relays (at most 8). The board
 * reports no power; the relay report carries the channels.
 */
import type { RegisterMapInput } from '../schema';

export const waveshareRelayMap = {
  type: 'waveshare-relay',
  source: 'Waveshare Modbus POE ETH Relay wiki, Modbus RTU command reference (8-channel)',
  report: 'relay',
  defaultSlaveId: 1,
  points: [{ name: 'relay1', address: 0, table: 'coil', type: 'bit' }],
  relays: { table: 'coil', address: 0, max: 8 },
} satisfies RegisterMapInput;
