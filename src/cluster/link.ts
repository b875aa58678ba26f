// A node's link to the NATS servers: connects in the background (a node starts, and serves, while
// NATS is down or not up yet), keeps trying until it is stopped, follows the client's reconnects,
// and tells its user each time the connection is (again) up, so it can set up what a restarted
// server may have lost. Its state is what /health shows.
import type { NatsConnection } from '@nats-io/transport-node';
import type { NatsLinkState } from '../domain/cluster-status.ts';
import { connectNats, type NatsSettings } from './nats.ts';

/** How long a first connection attempt waits, and how long between attempts while none answers. */
const ATTEMPT_TIMEOUT_MS = 5000;
const RETRY_MS = 500;
/** Not connected after this long at start: said once in the log (and all along in /health). */
const SLOW_START_MS = 5000;

export class NatsLink {
  state: NatsLinkState = 'connecting';
  /** The connection once made (it reconnects by itself), or null. */
  nc: NatsConnection | null = null;
  private readonly upListeners: ((nc: NatsConnection) => void)[] = [];
  private readonly downListeners: (() => void)[] = [];
  private isStopped = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly settings: NatsSettings,
    private readonly name: string,
    private readonly log: (line: string) => void,
  ) {}

  /** `listener` runs on the first connect and after every reconnect. */
  onUp(listener: (nc: NatsConnection) => void): void {
    this.upListeners.push(listener);
  }

  /** `listener` runs when the connection is lost (the client then reconnects by itself). */
  onDown(listener: () => void): void {
    this.downListeners.push(listener);
  }

  get isConnected(): boolean {
    return this.state === 'connected';
  }

  start(): void {
    void this.connectLoop();
  }

  async close(): Promise<void> {
    this.isStopped = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.wake?.();
    const nc = this.nc;
    this.state = 'closed';
    if (nc !== null && !nc.isClosed()) await nc.close().catch(() => {});
  }

  private async connectLoop(): Promise<void> {
    const slow = setTimeout(() => {
      if (this.nc === null && !this.isStopped) this.log(`warning: NATS at ${this.settings.nats} does not answer yet; this node serves meanwhile and connects as soon as it does`);
    }, SLOW_START_MS);
    let lastError = '';
    while (!this.isStopped) {
      try {
        this.nc = await connectNats(this.settings, this.name, ATTEMPT_TIMEOUT_MS);
        break;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (message !== lastError) this.log(`warning: ${message}; retrying`);
        lastError = message;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.retryTimer = setTimeout(resolve, RETRY_MS);
        });
      }
    }
    clearTimeout(slow);
    const nc = this.nc;
    if (nc === null) return;
    if (this.isStopped) {
      await nc.close().catch(() => {});
      return;
    }
    this.state = 'connected';
    this.log(`connected to NATS at ${nc.getServer()}`);
    void nc.closed().then(() => {
      this.state = 'closed';
    });
    this.notifyUp(nc);
    for await (const s of nc.status()) {
      if (this.isStopped) break;
      if (s.type === 'disconnect') {
        this.state = 'reconnecting';
        this.log(`warning: lost the NATS connection (${s.server}); reconnecting`);
        for (const l of this.downListeners) l();
      } else if (s.type === 'reconnect') {
        this.state = 'connected';
        this.log(`reconnected to NATS at ${s.server}`);
        this.notifyUp(nc);
      }
    }
  }

  private notifyUp(nc: NatsConnection): void {
    for (const l of this.upListeners) {
      try {
        l(nc);
      } catch (err) {
        this.log(`error: after connecting to NATS: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
