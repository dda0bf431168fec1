import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { DevicePresenceService, PresenceSettings } from '../graph/fleet/services/device-presence.service';

/**
 * This node's lease on presence (docs/operations.md, "Presence"): taken at start, renewed every
 * heartbeat, given up at a clean stop. Each heartbeat also sweeps: sessions of nodes whose lease
 * ran out are closed, so a node that died leaves no device online longer than
 * leaseSeconds + heartbeatSeconds while any node runs. Once the node listens it is named by its
 * host and port, and the sessions of an earlier node of that name (this node before a crash)
 * are closed at once.
 */
export class NodePresence {
  /** Random per process: each start is a new node. */
  readonly nodeId = randomUUID();
  /** Settles once the lease is taken (or taking it failed and was logged); sessions open only after it. */
  readonly ready: Promise<void>;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly presence: DevicePresenceService,
    private readonly settings: PresenceSettings,
    private readonly log: Logger,
    /** Called when the lease had run out at a renewal: the sessions held here are taken back. */
    private readonly onLeaseLost: () => Promise<void>,
  ) {
    this.ready = this.start();
  }

  private async start(): Promise<void> {
    try {
      await this.presence.startNode(this.nodeId, this.settings);
      this.report(await this.presence.sweep(), 'presence: sessions of nodes whose lease ran out closed at start');
    } catch (error) {
      this.log.error({ err: error, node: this.nodeId }, 'presence: taking the node lease failed; retried at the next heartbeat');
    }
    if (!this.stopped) {
      this.timer = setInterval(() => {
        if (!this.ticking) {
          this.ticking = this.tick().finally(() => {
            this.ticking = null;
          });
        }
      }, this.settings.heartbeatSeconds * 1000);
      // A chore: the server's sockets keep a node running, not its heartbeat (a hub left unclosed must not hold a process open).
      this.timer.unref();
    }
  }

  private async tick(): Promise<void> {
    try {
      if (!(await this.presence.renewNode(this.nodeId, this.settings))) {
        this.log.warn({ node: this.nodeId }, "presence: this node's lease had run out (a stall or the database away); taking its sessions back");
        await this.onLeaseLost();
      }
      this.report(await this.presence.sweep(), 'presence: sessions of nodes whose lease ran out closed');
    } catch (error) {
      this.log.error({ err: error, node: this.nodeId }, 'presence: the heartbeat failed');
    }
  }

  /** Names the node by the host and port `server` listens on, once it does. */
  attach(server: Server): void {
    const name = (): void => {
      const address = server.address();
      if (typeof address !== 'object' || address === null) {
        return;
      }
      const nodeName = `${hostname()}:${address.port}`;
      void this.ready
        .then(() => this.presence.nameNode(this.nodeId, nodeName))
        .then(
          (closed) => this.report(closed, 'presence: sessions of the node that served here before closed', { name: nodeName }),
          (error: unknown) => this.log.error({ err: error, node: this.nodeId }, 'presence: naming the node failed'),
        );
    };
    if (server.listening) {
      name();
      return;
    }
    server.once('listening', name);
  }

  /** Stops the heartbeat, closes the sessions still held here and gives up the lease. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearInterval(this.timer);
    }
    await this.ready;
    await this.ticking;
    try {
      await this.presence.stopNode(this.nodeId);
    } catch (error) {
      this.log.error({ err: error, node: this.nodeId }, 'presence: giving up the node lease failed; its sessions close when the lease runs out');
    }
  }

  private report(devices: number[], message: string, extra: Record<string, unknown> = {}): void {
    if (devices.length > 0) {
      this.log.info({ node: this.nodeId, devices, ...extra }, message);
    }
  }
}
