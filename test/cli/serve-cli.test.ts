// `mds` and `mds serve` as an operator runs them (`bun src/main.ts` in a child process): help,
// usage errors (exit code 2, one clear message, never a stack trace), checks made before the data
// dir is touched, and MDS_* environment variables with a flag winning over its variable.
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runMds, runMdsWith, serveMds } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A port nobody listens on right now. */
function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

const hasStackTrace = (text: string) => /^\s+at /m.test(text);

describe('mds help', () => {
  test('mds --help lists the commands and exits 0', async () => {
    const r = await runMds('--help');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Usage: mds <command>');
    for (const command of ['serve', 'keys', 'import']) expect(r.out).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(r.err).toBe('');
  });

  test('mds without a command prints the help and exits 2', async () => {
    const r = await runMds();
    expect(r.code).toBe(2);
    expect(r.out).toContain('Usage: mds <command>');
  });

  test('an unknown command exits 2 and points at mds --help', async () => {
    const r = await runMds('srve');
    expect(r.code).toBe(2);
    expect(r.err).toBe(`mds: unknown command "srve"; run 'mds --help' for the commands\n`);
  });

  test('mds serve --help lists every flag with its env var, descriptions in one column', async () => {
    const r = await runMds('serve', '--help');
    expect(r.code).toBe(0);
    const flags = ['port', 'host', 'data-dir', 'feed', 'seed', 'dev-key', 'ring-capacity', 'history-days', 'history-years', 'clock-start', 'rate-limit', 'sim-rate', 'heartbeat-ms', 'slow-consumer-bytes', 'min-free-disk', 'retain', 'plans', 'feeds', 'record', 'log-format', 'log-level', 'metrics-port', 'metrics-token', 'role', 'nats', 'nats-creds', 'nats-tls-ca', 'nats-tls-cert', 'nats-tls-key', 'edge-max-lag-ms', 'edge-bootstrap-timeout', 'snapshot-every', 'keyless-crypto', 'trust-proxy', 'tls-cert', 'tls-key', 'workers', 'no-dev-key', 'reuse-port'];
    for (const flag of flags) expect(r.out).toContain(`--${flag}`);
    for (const env of ['MDS_PORT', 'MDS_HOST', 'MDS_DATA_DIR', 'MDS_FEED', 'MDS_SEED', 'MDS_DEV_KEY', 'MDS_HEARTBEAT_MS', 'MDS_SLOW_CONSUMER_BYTES', 'MDS_NO_DEV_KEY', 'MDS_WORKERS', 'MDS_REUSE_PORT=1']) expect(r.out).toContain(`env ${env}`);
    const rows = r.out.split('\n').filter((line) => /^  -/.test(line));
    expect(rows.length).toBe(flags.length + 1);
    const columns = new Set(rows.map((line) => /^  \S.*?\s{2,}(?=\S)/.exec(line)![0].length));
    expect(columns.size).toBe(1);
    const envColumns = new Set(r.out.split('\n').filter((line) => /^\s+env /.test(line)).map((line) => line.indexOf('env ')));
    expect([...envColumns]).toEqual([...columns]);
  });
});

describe('mds serve usage errors exit 2 with a message naming the flag', () => {
  test.each([
    [['--bogus'], "mds: Unknown option '--bogus'"],
    [['--port', 'abc'], 'mds: --port must be an integer from 0 to 65535, got "abc"'],
    [['--port', '70000'], 'mds: --port must be an integer from 0 to 65535, got "70000"'],
    [['--history-days', '-1'], 'mds: --history-days must be an integer from 1 to 31, got "-1"'],
    [['--port', '--data-dir', 'x'], 'mds: --port needs a value: an integer from 0 to 65535'],
    [['--feed'], "mds: --feed needs a value: 'sim', 'none' or a comma-separated list of feeds"],
    [['--feed', 'live'], 'mds: --feed: no feed "live"; the feeds are sim'],
    [['--feed', 'Sim!'], "mds: --feed must be 'sim', 'none' or a comma-separated list of feeds"],
    [['--feed', 'sim,none'], "mds: --feed: 'none' cannot be combined with other feeds"],
    [['--sim-rate', '0'], 'mds: --sim-rate must be a number from 0.01 to 100, got "0"'],
    [['--clock-start', 'yesterday'], 'mds: --clock-start must be an ISO 8601 instant'],
    [['--dev-key', 'short'], 'mds: --dev-key must be 8 to 256 printable ASCII characters'],
    [['--dev-key', '-abcdefghij'], "mds: --dev-key: a value that starts with '-' must be written --dev-key=-abcdefghij"],
    [['extra'], "mds: Unexpected argument 'extra'"],
    [['--min-free-disk', '1 gallon'], 'mds: --min-free-disk must be a size in bytes, optionally with a unit (512MiB, 1GiB, 2GB, 0 for no check), got "1 gallon"'],
    [['--retain', '1m=90'], "mds: --retain: 1m=90: the age must be a whole number of days, weeks or years (90d, 12w, 2y) or 'forever'; it takes a comma-separated list"],
    [['--retain', '2m=90d'], 'mds: --retain: unknown timeframe "2m"; it takes a comma-separated list of TIMEFRAME=AGE, TIMEFRAME one of 1m, 5m, 15m, 1h, 4h, 1d'],
    [['--retain', '1m=90d,1m=30d'], 'mds: --retain: 1m is named twice'],
    [['--retain', '1m'], 'mds: --retain: "1m" is not TIMEFRAME=AGE'],
    [['--log-format', 'xml'], 'mds: --log-format must be one of text, json, got "xml"'],
    [['--log-level', 'verbose'], 'mds: --log-level must be one of debug, info, warn, error, got "verbose"'],
    [['--log-level'], 'mds: --log-level needs a value: one of debug, info, warn, error'],
    [['--trust-proxy', 'loopback,proxy.example.com'], 'mds: --trust-proxy must be addresses or CIDR ranges (10.0.0.1, 10.0.0.0/8, ::1, fd00::/8) and the names loopback, linklocal, uniquelocal, comma-separated: invalid IP address: proxy.example.com, got "loopback,proxy.example.com"'],
  ])('%p', async (args, message) => {
    using dir = tempDir();
    const r = await runMds('serve', '--data-dir', join(dir.path, 'data'), ...args);
    expect(r.code).toBe(2);
    expect(r.err.startsWith(message)).toBe(true);
    expect(hasStackTrace(r.err)).toBe(false);
    expect(r.out).toBe('');
    expect(existsSync(join(dir.path, 'data'))).toBe(false);
  });

  test('a host that resolves to no address exits 2 before the data dir is made', async () => {
    using dir = tempDir();
    const r = await runMds('serve', '--feed', 'none', '--data-dir', join(dir.path, 'data'), '--host', 'no.such.host.invalid');
    expect(r.code).toBe(2);
    expect(r.err).toStartWith('mds: --host "no.such.host.invalid" does not resolve to an address');
    expect(hasStackTrace(r.err)).toBe(false);
    expect(existsSync(join(dir.path, 'data'))).toBe(false);
  });

  test('a missing plans file exits 2 before the data dir and store are made', async () => {
    using dir = tempDir();
    const r = await runMds('serve', '--feed', 'none', '--data-dir', join(dir.path, 'data'), '--plans', join(dir.path, 'nonexistent.json'));
    expect(r.code).toBe(2);
    expect(r.err).toStartWith(`mds: cannot read plans file ${join(dir.path, 'nonexistent.json')}`);
    expect(existsSync(join(dir.path, 'data'))).toBe(false);
  });

  test('a port already taken exits 1 naming the address, without a stack trace', async () => {
    using dir = tempDir();
    using taken = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() });
    const r = await runMds('serve', '--feed', 'none', '--data-dir', join(dir.path, 'data'), '--host', '127.0.0.1', '--port', String(taken.port));
    expect(r.code).toBe(1);
    expect(r.err).toStartWith(`mds: cannot listen on 127.0.0.1:${taken.port}: `);
    expect(hasStackTrace(r.err)).toBe(false);
  });
});

describe('mds serve reads MDS_* environment variables; a flag wins over its variable', () => {
  test('a bad value in a variable exits 2 naming the variable', async () => {
    using dir = tempDir();
    const r = await runMdsWith({ MDS_HISTORY_DAYS: '40', MDS_DATA_DIR: join(dir.path, 'data') }, 'serve');
    expect(r.code).toBe(2);
    expect(r.err).toStartWith('mds: MDS_HISTORY_DAYS must be an integer from 1 to 31, got "40"');
    expect(existsSync(join(dir.path, 'data'))).toBe(false);
  });

  test('MDS_PORT, MDS_HOST, MDS_FEED and MDS_DATA_DIR are used when no flag is given', async () => {
    using dir = tempDir();
    const port = freePort();
    const dataDir = join(dir.path, 'from-env');
    await using server = await serveMds({ MDS_PORT: String(port), MDS_HOST: '127.0.0.1', MDS_FEED: 'none', MDS_DATA_DIR: dataDir, MDS_DEV_KEY: 'env-key-0123456789' });
    expect(server.port).toBe(port);
    expect(server.out).toContain(`data dir ${dataDir}`);
    const res = await fetch(`http://127.0.0.1:${port}/crypto/symbols`, { headers: { 'x-api-key': 'env-key-0123456789' } });
    expect(res.status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.json()) as { feed: string }).feed).toBe('none');
  });

  test('flags win over the variables, even over a bad one', async () => {
    using dir = tempDir();
    const port = freePort();
    await using server = await serveMds({ MDS_PORT: 'not-a-port', MDS_FEED: 'none', MDS_DATA_DIR: join(dir.path, 'env-dir') }, '--port', String(port), '--host', '127.0.0.1', '--data-dir', join(dir.path, 'flag-dir'));
    expect(server.port).toBe(port);
    expect(server.out).toContain(`data dir ${join(dir.path, 'flag-dir')}`);
    expect(existsSync(join(dir.path, 'env-dir'))).toBe(false);
  });
});
