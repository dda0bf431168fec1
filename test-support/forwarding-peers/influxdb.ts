import type { PeerStarter } from './peer';

/** Placeholder until the influxdb peer lands (issue 18). */
export const influxdbPeer: PeerStarter = {
  kind: 'influxdb',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the influxdb peer is not built yet')),
};
