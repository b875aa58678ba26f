// The ingest node's outbox against a fake JetStream that stores what reaches it (dropping a repeated
// message id, as JetStream's dedupe does): the stream gets the queue's order, each message once,
// across lost connections, refused publishes and a queue that overflows while NATS is away.
import { describe, expect, test } from 'bun:test';
import type { JetStreamClient, PubAck } from '@nats-io/jetstream';
import { Outbox } from '../../src/cluster/outbox.ts';
import { until } from '../support/cli.ts';

/** What the server holds: message ids in the order stored. */
class FakeServer {
  readonly stored: string[] = [];
  store(id: string): PubAck {
    const duplicate = this.stored.includes(id);
    if (!duplicate) this.stored.push(id);
    return { stream: 'MDS_TICKS', seq: this.stored.indexOf(id) + 1, duplicate };
  }
}

/** One connection to the fake server: answers at once, holds publishes, or refuses them. */
class FakeConnection {
  mode: 'ack' | 'hold' | 'refuse' = 'ack';
  readonly held: { id: string; answer: () => void }[] = [];
  constructor(private readonly server: FakeServer) {}
  client(): JetStreamClient {
    return {
      publish: (_subject: string, _data: Uint8Array, opts: { msgID: string }) => {
        if (this.mode === 'refuse') return Promise.reject(new Error('no responders'));
        if (this.mode === 'ack') return Promise.resolve(this.server.store(opts.msgID));
        return new Promise<PubAck>((resolve) => this.held.push({ id: opts.msgID, answer: () => resolve(this.server.store(opts.msgID)) }));
      },
    } as unknown as JetStreamClient;
  }
}

const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`);
const enqueue = (outbox: Outbox, from: number, to: number, bytes = 10) => {
  for (const id of ids(from, to)) outbox.enqueue('mds.tick.crypto', new Uint8Array(bytes), id, 2);
};

describe('outbox', () => {
  test('publishes in queue order and counts what was stored', async () => {
    const server = new FakeServer();
    const outbox = new Outbox(() => {}, async () => {});
    outbox.attach(new FakeConnection(server).client());
    enqueue(outbox, 1, 1000);
    expect(await outbox.drained(5000)).toBe(true);
    expect(server.stored).toEqual(ids(1, 1000));
    expect(outbox.report()).toMatchObject({ published: 1000, publishedTicks: 2000, queued: 0, queuedBytes: 0, streamSeq: 1000, failure: null });
  });

  test('a lost connection: what was in flight is sent again on the next one, ahead of anything newer, once', async () => {
    const server = new FakeServer();
    const outbox = new Outbox(() => {}, async () => {});
    const first = new FakeConnection(server);
    first.mode = 'hold';
    outbox.attach(first.client());
    enqueue(outbox, 1, 10);
    expect(first.held.map((h) => h.id)).toEqual(ids(1, 10));
    // The server got three of them before the connection died; their acks never came.
    for (const h of first.held.slice(0, 3)) server.store(h.id);
    outbox.detach();
    enqueue(outbox, 11, 15);
    outbox.attach(new FakeConnection(server).client());
    expect(await outbox.drained(5000)).toBe(true);
    expect(server.stored).toEqual(ids(1, 15));
    // An ack of the old connection that comes late changes nothing.
    first.held[4]!.answer();
    await Bun.sleep(0);
    expect(server.stored).toEqual(ids(1, 15));
    expect(outbox.report()).toMatchObject({ queued: 0, failure: null, droppedMessages: 0 });
  });

  test('refused publishes (JetStream not ready) are sent again in order once it answers', async () => {
    const server = new FakeServer();
    const logs: string[] = [];
    let retries = 0;
    const outbox = new Outbox((line) => logs.push(line), async () => void retries++);
    const conn = new FakeConnection(server);
    outbox.attach(conn.client());
    enqueue(outbox, 1, 5);
    await until(async () => server.stored.length === 5, 'the first five');
    conn.mode = 'refuse';
    enqueue(outbox, 6, 20);
    await until(async () => outbox.report().failure !== null, 'a refusal');
    expect(outbox.report()).toMatchObject({ failure: 'no responders', queued: 15 });
    conn.mode = 'ack';
    expect(await outbox.drained(5000)).toBe(true);
    expect(server.stored).toEqual(ids(1, 20));
    expect(retries).toBeGreaterThan(0);
    expect(logs).toEqual(['warning: publishing to JetStream failed (no responders); sending again once NATS answers']);
  });

  test('while NATS is away the queue is bounded: the oldest messages go first, counted, the rest in order', async () => {
    const server = new FakeServer();
    const logs: string[] = [];
    const outbox = new Outbox((line) => logs.push(line), async () => {}, 1000);
    enqueue(outbox, 1, 150);
    expect(outbox.report()).toMatchObject({ queued: 100, queuedBytes: 1000, droppedMessages: 50, droppedTicks: 100 });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toStartWith('error: NATS has been away longer than the publish queue holds');
    outbox.attach(new FakeConnection(server).client());
    expect(await outbox.drained(5000)).toBe(true);
    expect(server.stored).toEqual(ids(51, 150));
  });

  test('settled: true once every message queued before it is acked (across a compaction), false when one was dropped', async () => {
    const server = new FakeServer();
    const outbox = new Outbox(() => {}, async () => {}, 1000);
    const conn = new FakeConnection(server);
    conn.mode = 'hold';
    outbox.attach(conn.client());
    enqueue(outbox, 1, 5000);
    let settled = null as boolean | null;
    void outbox.settled().then((ok) => (settled = ok));
    enqueue(outbox, 5001, 5010);
    // Acked up to the last message before it, in order: it resolves then, not before.
    while (conn.held.length > 0 && server.stored.length < 4999) {
      conn.held.shift()!.answer();
      // The ack's callback runs, and the outbox sends the next messages.
      await Bun.sleep(0);
    }
    expect(settled).toBeNull();
    conn.mode = 'ack';
    conn.held.shift()!.answer();
    await until(async () => settled !== null, 'settled to resolve');
    expect(settled).toBe(true);
    expect(server.stored.slice(0, 5000)).toEqual(ids(1, 5000));

    // NATS away and the queue overflowing: what was waited for was partly dropped.
    const away = new Outbox(() => {}, async () => {}, 1000);
    enqueue(away, 1, 10);
    const waited = away.settled();
    enqueue(away, 11, 150);
    away.attach(new FakeConnection(new FakeServer()).client());
    expect(await waited).toBe(false);
  });
});
