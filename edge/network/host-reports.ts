import type { DeviceReport } from '../../contracts/hub/reports';
import type { Reporter } from '../agent/reporter';
import type { HostNetworkOutcome } from './host-network';

/** Codes of the reports about the gateway's own network (docs/edge.md "The gateway's own network"). */
export const hostNetworkCodes = {
  /** Alarm, level info: a network or VPN change waits for the maintenance window (active false once it ran). */
  changePending: 'network_change_pending',
  /** Error: a change that waited was rolled back, or could not be read; the previous settings run. */
  rolledBack: 'network_rolled_back',
  /** Error: a change was carried out and the cloud is reachable, but a slot or the VPN did not come up. */
  incomplete: 'network_incomplete',
} as const;

/** The text of an outcome that left the previous settings running. */
export function hostFailureText(outcome: Extract<HostNetworkOutcome, { kind: 'refused' | 'rolledBack' }>): string {
  if (outcome.kind === 'refused') {
    return `The network and VPN were not changed: ${outcome.reason}`;
  }
  const after = outcome.restored ? 'the previous settings were restored and the cloud is reachable again' : 'the previous settings were restored';
  return `The network change was rolled back: ${outcome.reason}; ${after}.`;
}

/**
 * The reports of an outcome besides the answer to the message: the pending alarm raised or
 * cleared, what did not come up, and (for a change that waited, which no message answers any
 * more) a rollback. They go through the report store, so a rollback that cut the link is
 * reported once the link is back.
 */
export function hostOutcomeReports(outcome: HostNetworkOutcome, reporter: Reporter, waited: boolean): DeviceReport[] {
  const reports: DeviceReport[] = [];
  const at = reporter.at();
  if (outcome.kind === 'pending') {
    const description = `The network and VPN change waits for the maintenance window ${outcome.window.start}-${outcome.window.end} (gateway local time).`;
    return [{ type: 'alarm', at, observations: { code: hostNetworkCodes.changePending, level: 'info', active: true, description } }];
  }
  if (waited) {
    reports.push({ type: 'alarm', at, observations: { code: hostNetworkCodes.changePending, level: 'info', active: false } });
  }
  if (outcome.kind === 'applied' && outcome.warnings.length > 0) {
    reports.push(
      reporter.error(hostNetworkCodes.incomplete, `The network change was carried out and the cloud is reachable, but: ${outcome.warnings.join('; ')}`),
    );
  }
  if (waited && (outcome.kind === 'rolledBack' || outcome.kind === 'refused')) {
    reports.push(reporter.error(hostNetworkCodes.rolledBack, hostFailureText(outcome)));
  }
  return reports;
}
