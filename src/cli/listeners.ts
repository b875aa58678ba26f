// The service port's listeners as one publisher. Bun's server.reload() ignores `tls` (Bun 1.4.4),
// so a new certificate takes a new listener: the old one stops listening but keeps its open
// connections. Bun's topics belong to one server, so what the hub publishes goes to every
// listener that still has connections, until the retired ones have none.
import type { Server } from 'bun';
import type { ConnData } from '../stream/connections.ts';

type PublishArgs = Parameters<Server<ConnData>['publish']>;

export class Listeners {
  private retired: Server<ConnData>[] = [];

  constructor(private serving: Server<ConnData>) {}

  /** The listener that accepts new connections. */
  get current(): Server<ConnData> {
    return this.serving;
  }

  /** Makes `next` the listener of new connections; the previous one must have stopped listening already. */
  replace(next: Server<ConnData>): void {
    this.retired.push(this.serving);
    this.serving = next;
    // A retired listener whose last connection has ended is done with.
    this.retired = this.retired.filter((s) => {
      if (s.pendingWebSockets > 0 || s.pendingRequests > 0) return true;
      void s.stop(true);
      return false;
    });
  }

  /** Listeners still holding connections that started before the last certificate reload. */
  get retiredCount(): number {
    return this.retired.length;
  }

  publish(...args: PublishArgs): ReturnType<Server<ConnData>['publish']> {
    for (const s of this.retired) s.publish(...args);
    return this.serving.publish(...args);
  }

  subscriberCount(topic: string): number {
    let count = this.serving.subscriberCount(topic);
    for (const s of this.retired) count += s.subscriberCount(topic);
    return count;
  }

  async stop(): Promise<void> {
    await Promise.all([this.serving, ...this.retired].map((s) => s.stop(true)));
  }
}
