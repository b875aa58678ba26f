// The role flags of `mds serve`: what each role needs and refuses, and a real nats-server the
// cluster tests run against (started, stopped and started again on its store).
import { beforeAll, describe, expect, test } from 'bun:test';
import { jetstreamManager } from '@nats-io/jetstream';
import { parseServeConfig, UsageError, type ServeConfig } from '../src/config.ts';
import { barSubject, connectNats, subjectToken, tickSubject } from '../src/cluster/nats.ts';
import { until } from './support/cli.ts';
import { ensureNatsServer, startNats } from './support/nats.ts';

const parse = (...argv: string[]) => parseServeConfig(argv, {}) as ServeConfig;
const refusal = (...argv: string[]) => {
  try {
    parseServeConfig(argv, {});
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`accepted: ${argv.join(' ')}`);
};

describe('--role', () => {
  test('all is the default and needs no NATS; --nats without a role is refused', () => {
    expect(parse().role).toBe('all');
    expect(parse().nats).toBeNull();
    expect(refusal('--nats', 'nats://127.0.0.1:4222')).toContain('--nats is for --role ingest or edge');
  });

  test('ingest and edge need --nats; an edge runs no feed of its own', () => {
    expect(refusal('--role', 'edge')).toBe('--role edge needs --nats URLS (the NATS servers, JetStream enabled), e.g. --nats nats://127.0.0.1:4222');
    expect(refusal('--role', 'ingest')).toContain('--role ingest needs --nats');
    expect(refusal('--role', 'hub')).toBe('--role must be one of all, ingest, edge, got "hub"');
    const edge = parse('--role', 'edge', '--nats', 'nats://127.0.0.1:4222,nats://10.0.0.2:4222');
    expect(edge.feed).toBe('none');
    expect(edge.nats).toBe('nats://127.0.0.1:4222,nats://10.0.0.2:4222');
    expect(refusal('--role', 'edge', '--nats', 'nats://127.0.0.1:4222', '--feed', 'sim')).toContain('--role edge runs no feed of its own');
    expect(parse('--role', 'ingest', '--nats', '127.0.0.1:4222').feed).toBe('sim');
  });

  test('bad NATS URLs and half a client certificate are refused', () => {
    expect(refusal('--role', 'ingest', '--nats', 'http://x/y')).toContain('--nats must be NATS server URLs');
    expect(refusal('--role', 'ingest', '--nats', 'nats://h:4222', '--nats-tls-cert', 'c.pem')).toBe('--nats-tls-cert and --nats-tls-key go together');
  });
});

describe('subjects', () => {
  test('symbols become subject tokens without wildcards or separators, reversibly distinct', () => {
    expect(tickSubject('crypto')).toBe('mds.tick.crypto');
    expect(barSubject('crypto', 'BTCUSD')).toBe('mds.bar.crypto.BTCUSD');
    expect(barSubject('stocks', 'US:BRK.B')).toBe('mds.bar.stocks.US:BRK%2eB');
    expect(subjectToken('EURUSD.RAW')).toBe('EURUSD%2eRAW');
    expect(subjectToken('A%2e')).not.toBe(subjectToken('A.'));
  });
});

describe('test nats-server', () => {
  beforeAll(() => ensureNatsServer(), 600_000);

  test('runs JetStream, and keeps its streams across a restart on the same port', async () => {
    await using nats = await startNats();
    const settings = { nats: nats.url, natsCreds: null, natsTlsCa: null, natsTlsCert: null, natsTlsKey: null };
    const nc = await connectNats(settings, 'test');
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: 'T', subjects: ['t.>'] });
    await nats.stop();
    await nats.start();
    // The client reconnects by itself and finds the stream on the restarted server.
    let subjects: string[] | undefined;
    await until(async () => {
      subjects = await jsm.streams.info('T').then((i) => i.config.subjects, () => undefined);
      return subjects !== undefined;
    }, 'the stream on the restarted server');
    expect(subjects).toEqual(['t.>']);
    await nc.close();
  }, 30_000);

  test('a server nobody listens on is a clear error', async () => {
    const settings = { nats: 'nats://127.0.0.1:1', natsCreds: null, natsTlsCa: null, natsTlsCert: null, natsTlsKey: null };
    await expect(connectNats(settings, 'test', 1000)).rejects.toThrow('cannot connect to NATS at nats://127.0.0.1:1');
  });
});
