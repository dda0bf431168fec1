import type * as yup from 'yup';
import type { cloudToDeviceCommandSchemas } from '../../../contracts/device/commands';
import type { DeviceConfig, setConfigMessageSchema } from '../../../contracts/device/config';
import type { GatewayIdentity } from '../../gateway-client/provision';
import type { AgentClock } from '../clock';
import type { HeldSchedules } from '../held-schedules';
import type { AgentLog, Journal } from '../journal';
import type { AgentParts } from '../parts';
import type { DeviceReport } from '../../../contracts/hub/reports';
import type { Reporter } from '../reporter';
import type { Runtime } from '../runtime';
import type { AgentState } from '../state';
import type { SystemProbes } from '../system';
import type { HostNetwork } from '../../network/host-network';

/** The schema of each cloud-to-device message type (device-model.md section 3.10). */
type Schemas = { setConfig: typeof setConfigMessageSchema } & typeof cloudToDeviceCommandSchemas;
/** Every message type: a type the contracts add needs its handler in messages/handlers.ts before the agent compiles. */
export type MessageType = keyof Schemas;
/** A valid message of one type (by its schema, since the union schema's own inferred type, CloudToDeviceMessage, is not narrowed by its tag). */
export type MessageOf<T extends MessageType> = yup.InferType<Schemas[T]> & { type: T };

/** What a message handler reaches of the agent. */
export interface AgentServices {
  readonly clock: AgentClock;
  readonly log: AgentLog;
  readonly journal: Journal;
  readonly parts: AgentParts;
  readonly system: SystemProbes;
  /** The cloud and the gateway's identity (a tunnel connects with them). */
  readonly connection: { baseUrl: string; identity: Pick<GatewayIdentity, 'certificatePem' | 'privateKey'> };
  readonly state: AgentState;
  readonly reporter: Reporter;
  readonly schedules: HeldSchedules;
  /** What runs the config now; null while none does. */
  runtime(): Runtime | null;
  /** The gateway's own network and VPN (edge/network); null where the agent leaves them alone. */
  readonly host: HostNetwork | null;
  /**
   * Runs a config in place of the one running, after the work queued before it; throws when it
   * cannot be run (nothing runs then). Answers the error reports of what it names that this agent
   * cannot run (an asset type without a driver, a loop type not built): send them after the
   * config's own report, since the hub takes an asset index only once it knows the config.
   */
  run(config: DeviceConfig): Promise<DeviceReport[]>;
  /** Runs `work` once the message is answered and its envelope acknowledged. */
  afterAnswer(work: () => Promise<void>): void;
  /** Restarts the agent in process. */
  restart(): Promise<void>;
  /** Stops the agent and asks its supervisor for an exit code (agentExitCodes). */
  exit(code: number, reason: string): Promise<void>;
}

/** One message being carried out. */
export interface MessageCall<T extends MessageType> {
  id: string;
  message: MessageOf<T>;
  agent: AgentServices;
  /** Answers the message with an error report (on an asset when given); resolves false: not carried out. */
  fail(code: string, text: string, asset?: number): Promise<boolean>;
}

/** Carries out a message; resolves true when it was carried out (an ack report follows), false when it was answered otherwise. */
export type MessageHandler<T extends MessageType> = (call: MessageCall<T>) => Promise<boolean>;

/** One handler for each cloud-to-device message type: a type without one does not compile. */
export type MessageHandlers = { [T in MessageType]: MessageHandler<T> };
