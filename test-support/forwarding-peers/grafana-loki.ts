import type { PeerStarter } from './peer';

/** Placeholder until the grafana-loki peer lands (issue 18). */
export const grafanaLokiPeer: PeerStarter = {
  kind: 'grafana-loki',
  missing: () => 'not built yet',
  start: () => Promise.reject(new Error('the grafana-loki peer is not built yet')),
};
