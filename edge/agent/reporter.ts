import { validateReport, type DeviceReport, type ReportOf } from '../../contracts/hub/reports';
import type { GatewayClient } from '../gateway-client/client';
import type { AgentClock } from './clock';
import type { AgentLog } from './journal';

/** Error codes of the agent's error reports (docs/edge.md). */
export const agentErrorCodes = {
  invalidMessage: 'invalid_message',
  invalidConfig: 'invalid_config',
  configNotApplied: 'config_not_applied',
  unsupportedAssetType: 'unsupported_asset_type',
  unsupportedConnection: 'unsupported_connection',
  unsupportedControlLoop: 'unsupported_control_loop',
  unknownAsset: 'unknown_asset',
  unknownControlLoop: 'unknown_control_loop',
  unsupportedParameters: 'unsupported_parameters',
  noVestasApClient: 'no_vestas_ap_client',
  noModem: 'no_modem',
  tunnelFailed: 'tunnel_failed',
  commandFailed: 'command_failed',
  reportsDropped: 'reports_dropped',
} as const;

/** What an error report is about: the message it answers, the asset it concerns. */
export interface ErrorAbout {
  messageId?: string;
  messageType?: string;
  asset?: number;
}

/** Builds the agent's reports and sends them through the gateway client (stored on disk first). */
export class Reporter {
  constructor(
    private readonly clock: AgentClock,
    private readonly log: AgentLog,
    private readonly client: () => GatewayClient | null,
  ) {}

  /** Now on the agent's clock, as a report's `at`. */
  at(): string {
    return new Date(this.clock.now()).toISOString();
  }

  /** Sends a report; one that does not pass the contract is logged, not sent (the cloud would refuse it). */
  async send(report: DeviceReport): Promise<void> {
    const checked = validateReport(report);
    if (!checked.ok) {
      this.log('error', `report ${report.type} does not pass its schema; not sent`, { issues: checked.issues });
      return;
    }
    await this.client()?.report(report);
  }

  error(code: string, message: string, about: ErrorAbout = {}): ReportOf<'error'> {
    return {
      type: 'error',
      at: this.at(),
      ...(about.asset === undefined ? {} : { asset: about.asset }),
      observations: {
        ...(about.messageId === undefined ? {} : { messageId: about.messageId }),
        ...(about.messageType === undefined ? {} : { messageType: about.messageType }),
        code,
        message: message.slice(0, 2000),
      },
    };
  }

  /** After a reconnection: what the full store did not keep, as one error report (then the counter starts again). */
  async sendDropped(): Promise<void> {
    const client = this.client();
    if (!client) {
      return;
    }
    const dropped = client.dropped;
    if (dropped.regular + dropped.flash === 0) {
      return;
    }
    const since = dropped.since === null ? '' : ` since ${new Date(dropped.since).toISOString()}`;
    await this.send(
      this.error(
        agentErrorCodes.reportsDropped,
        `The report store was full${since}: ${dropped.regular + dropped.flash} reports were not kept (regular ${dropped.regular}, flash ${dropped.flash}).`,
      ),
    );
    await client.clearDropped(dropped);
    this.log('warn', 'reports dropped while the store was full', { regular: dropped.regular, flash: dropped.flash });
  }
}

/** A value as plain JSON (a report's observations). */
export function toJson(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
