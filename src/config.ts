// Flags and environment of `mds serve`, one table parsed once: each option has a flag, an env
// var, a default, a check, and the help text that `mds serve --help` prints.
import { parseArgs } from 'node:util';
import { isReplayFeed, parseReplaySpec, REPLAY_FORMAT } from './domain/replay-spec.ts';
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from './log.ts';
import { DEFAULT_RETENTION, formatRetention, parseRetention, RETENTION_ALLOWED, type Retention } from './domain/retention.ts';
import { TRUST_PROXY_ALLOWED, trustedProxies } from './auth/client-address.ts';

export class UsageError extends Error {}

export interface ServeConfig {
  port: number;
  host: string;
  dataDir: string;
  /** The feeds to run, comma-separated as given (`sim`, `none`, `binance,kraken`), or one `replay:PATH...`; known ids are checked by serve. */
  feed: string;
  /** JSON file with per-feed settings (see src/cli/feeds-file.ts), or null. */
  feedsFile: string | null;
  /** Directory the normalized ticks of every feed are recorded to (hourly files), or null. */
  record: string | null;
  seed: number;
  devKey: string | null;
  ringCapacity: number;
  historyDays: number;
  historyYears: number;
  clockStartMs: number | null;
  rateLimitPerMinute: number;
  noDevKey: boolean;
  /** Serving processes on the port; above 1 `serve` supervises an ingest process and edges over a NATS server of its own (src/cli/workers.ts). */
  workers: number;
  /** Listen with SO_REUSEPORT, sharing the port with other mds processes (set on each process of --workers). */
  reusePort: boolean;
  plansFile: string | null;
  simRate: number;
  heartbeatMs: number;
  slowConsumerBytes: number;
  minFreeDiskBytes: number;
  retain: Retention;
  logFormat: LogFormat;
  logLevel: LogLevel;
  /** Port of its own serving GET /metrics, open (same host as the service), or null. */
  metricsPort: number | null;
  /** Bearer token that opens GET /metrics on the main port, or null (there it answers 404). */
  metricsToken: string | null;
  /** Peers whose X-Forwarded-For names the client (`--trust-proxy`); empty: the socket's peer is the client. */
  trustProxy: string[];
  /** `all`: one process, no NATS; `ingest`: feeds in, publishes to JetStream; `edge`: consumes JetStream, serves. */
  role: Role;
  /** NATS server URLs, comma-separated (`nats://host:4222`), or null (role all). */
  nats: string | null;
  /** NATS credentials file (JWT and seed, as `nsc` writes it), or null. */
  natsCreds: string | null;
  /** PEM file of the CA that signed the NATS server's certificate, or null (TLS off unless the URL is tls://). */
  natsTlsCa: string | null;
  /** PEM client certificate and key for NATS servers that verify clients, or null. */
  natsTlsCert: string | null;
  natsTlsKey: string | null;
  /** Edge: behind the stream by more than this, /health says degraded. */
  edgeMaxLagMs: number;
  /** How long a new edge waits for the ingest node's first snapshot before it serves a partial history. */
  edgeBootstrapTimeoutS: number;
  /** Ingest: minutes between store snapshots for new edges in the NATS object store (0: none). */
  snapshotEveryMin: number;
  /** Alpaca crypto data requests without a key: `auto` serves them while the development key is on. */
  keylessCrypto: KeylessCrypto;
  /** PEM certificate (chain) and private key files: the port serves https and wss; both or neither. */
  tlsCert: string | null;
  tlsKey: string | null;
}

export const KEYLESS_CRYPTO_MODES = ['auto', 'on', 'off'] as const;
export type KeylessCrypto = (typeof KEYLESS_CRYPTO_MODES)[number];

/**
 * Set by `serve --workers` on the processes it starts: the supervisor's pid. A process whose parent
 * is no longer that pid (the supervisor was killed) stops, so none outlives it holding the port.
 */
export const WORKERS_SUPERVISOR_ENV = 'MDS_WORKERS_SUPERVISOR';

/** Whether keyless Alpaca crypto data requests are served: `auto` follows the development key. */
export function keylessCryptoOn(config: Pick<ServeConfig, 'keylessCrypto' | 'noDevKey'>): boolean {
  return config.keylessCrypto === 'on' || (config.keylessCrypto === 'auto' && !config.noDevKey);
}

export const ROLES = ['all', 'ingest', 'edge'] as const;
export type Role = (typeof ROLES)[number];

/** A comma-separated list of nats://, tls://, ws:// or wss:// URLs (host:port alone means nats://). */
function natsUrls(raw: string, name: string): string {
  const urls = raw.split(',').map((u) => u.trim()).filter((u) => u !== '');
  const bad = urls.find((u) => !/^((nats|tls|ws|wss):\/\/)?[^\s/:]+(:\d{1,5})?$/.test(u.replace(/^(nats|tls|ws|wss):\/\/[^@/]*@/, '$1://')));
  if (urls.length === 0 || bad !== undefined) throw new UsageError(`${name} must be NATS server URLs, comma-separated (nats://127.0.0.1:4222, tls://nats.example:4222), got ${JSON.stringify(raw)}`);
  return urls.join(',');
}

interface OptionSpec<K extends keyof ServeConfig> {
  key: K;
  flag: string;
  env: string;
  arg: string;
  help: string;
  /** What a value may be, for messages about a flag given without one. */
  allowed: string;
  fallback: ServeConfig[K];
  /** The default as `--help` shows it, when the value itself does not print well. */
  shownDefault?: string;
  parse: (raw: string, name: string) => ServeConfig[K];
}

function integer(min: number, max: number) {
  return (raw: string, name: string): number => {
    if (!/^-?\d+$/.test(raw.trim()) || Number(raw) < min || Number(raw) > max) throw new UsageError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
    return Number(raw);
  };
}

const BYTE_UNITS: Record<string, number> = { '': 1, b: 1, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3, tib: 1024 ** 4, kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12 };

function byteSize(raw: string, name: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = m ? BYTE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new UsageError(`${name} must be a size in bytes, optionally with a unit (512MiB, 1GiB, 2GB, 0 for no check), got ${JSON.stringify(raw)}`);
  return Math.round(Number(m[1]) * unit);
}

function retention(raw: string, name: string): Retention {
  const parsed = parseRetention(raw);
  if (typeof parsed === 'string') throw new UsageError(`${name}: ${parsed}; it takes ${RETENTION_ALLOWED}`);
  return parsed;
}

/** One of a fixed list of words, the message naming them all. */
function oneOf<T extends string>(allowed: readonly T[]) {
  return (raw: string, name: string): T => {
    const word = raw.trim().toLowerCase();
    if (!(allowed as readonly string[]).includes(word)) throw new UsageError(`${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`);
    return word as T;
  };
}

function instant(raw: string, name: string): number {
  const ms = /^\d+$/.test(raw) ? Number(raw) : Date.parse(raw);
  if (Number.isNaN(ms)) throw new UsageError(`${name} must be an ISO 8601 instant (2026-03-02T15:00:00Z) or Unix ms, got ${JSON.stringify(raw)}`);
  return ms;
}

const OPTIONS = [
  { key: 'port', flag: 'port', env: 'MDS_PORT', arg: 'N', allowed: 'an integer from 0 to 65535', help: 'TCP port for REST and WebSocket (0 picks a free port)', fallback: 8080, parse: integer(0, 65535) },
  { key: 'host', flag: 'host', env: 'MDS_HOST', arg: 'ADDR', allowed: 'a host name or IP address', help: 'address to listen on', fallback: '0.0.0.0', parse: (raw: string) => raw },
  { key: 'dataDir', flag: 'data-dir', env: 'MDS_DATA_DIR', arg: 'DIR', allowed: 'a directory path', help: 'where the LMDB store lives (created if missing)', fallback: './data', parse: (raw: string) => raw },
  {
    key: 'feed',
    flag: 'feed',
    env: 'MDS_FEED',
    arg: 'LIST',
    allowed: `'sim', 'none' or a comma-separated list of feeds ('mds feeds' lists them), or one ${REPLAY_FORMAT}`,
    help: `feeds to run, comma-separated: 'sim' (the built-in simulator), venues such as 'binance,kraken' ('mds feeds' lists them), 'none' to serve only what is stored, or ${REPLAY_FORMAT} to play back a recording (see --record)`,
    fallback: 'sim',
    parse: (raw: string, name: string) => {
      // A replay is one spec, path and all (a path may hold commas), and runs alone.
      if (isReplayFeed(raw.trim())) {
        const spec = parseReplaySpec(raw.trim());
        if (typeof spec === 'string') throw new UsageError(`${name}: ${spec}`);
        return raw.trim();
      }
      const ids = raw.split(',').map((id) => id.trim());
      if (ids.some(isReplayFeed)) throw new UsageError(`${name}: a replay runs alone (the service clock follows the recording): ${REPLAY_FORMAT}, got ${JSON.stringify(raw)}`);
      const allowed = `'sim', 'none' or a comma-separated list of feeds such as 'sim,coinbase' ('mds feeds' lists them), or one ${REPLAY_FORMAT}`;
      if (ids.some((id) => !/^[a-z0-9][a-z0-9-]*$/.test(id))) throw new UsageError(`${name} must be ${allowed}, got ${JSON.stringify(raw)}`);
      if (ids.includes('none') && ids.length > 1) throw new UsageError(`${name}: 'none' cannot be combined with other feeds, got ${JSON.stringify(raw)}`);
      if (new Set(ids).size !== ids.length) throw new UsageError(`${name} names a feed twice, got ${JSON.stringify(raw)}`);
      return ids.join(',');
    },
  },
  { key: 'feedsFile', flag: 'feeds', env: 'MDS_FEEDS', arg: 'FILE', allowed: 'a JSON file path', help: 'JSON file with per-feed settings: instruments, symbol mapping, URL, credentials by env var name, timeouts (see docs/feeds.md)', fallback: null, parse: (raw: string) => raw },
  { key: 'record', flag: 'record', env: 'MDS_RECORD', arg: 'DIR', allowed: 'a directory path', help: "record every feed's normalized ticks to hourly files under DIR, for --feed replay:DIR (see docs/feeds.md, Record and replay)", fallback: null, parse: (raw: string) => raw },
  { key: 'seed', flag: 'seed', env: 'MDS_SEED', arg: 'N', allowed: `an integer from 0 to ${2 ** 31 - 1}`, help: 'simulator seed: the same seed and clock give the same data', fallback: 1, parse: integer(0, 2 ** 31 - 1) },
  { key: 'devKey', flag: 'dev-key', env: 'MDS_DEV_KEY', arg: 'KEY', allowed: '8 to 256 printable ASCII characters without spaces', help: 'the development API key (default: a random key kept in the data dir)', fallback: null, parse: (raw: string, name: string) => {
      if (raw.length < 8 || raw.length > 256 || /[^\x21-\x7e]/.test(raw)) throw new UsageError(`${name} must be 8 to 256 printable ASCII characters without spaces`);
      return raw;
    } },
  { key: 'ringCapacity', flag: 'ring-capacity', env: 'MDS_RING_CAPACITY', arg: 'N', allowed: 'an integer from 128 to 10000000', help: 'ticks kept per symbol and kind in the ring buffer', fallback: 8192, parse: integer(128, 10_000_000) },
  { key: 'historyDays', flag: 'history-days', env: 'MDS_HISTORY_DAYS', arg: 'N', allowed: 'an integer from 1 to 31', help: 'simulator: days of 1-minute history made on first start', fallback: 31, parse: integer(1, 31) },
  { key: 'historyYears', flag: 'history-years', env: 'MDS_HISTORY_YEARS', arg: 'N', allowed: 'an integer from 0 to 20', help: 'simulator: years of daily history made on first start', fallback: 5, parse: integer(0, 20) },
  { key: 'clockStartMs', flag: 'clock-start', env: 'MDS_CLOCK_START', arg: 'TIME', allowed: 'an ISO 8601 instant (2026-03-02T15:00:00Z) or Unix ms', help: 'run the service clock from this instant (ISO 8601 or Unix ms) instead of now', fallback: null, parse: instant },
  { key: 'rateLimitPerMinute', flag: 'rate-limit', env: 'MDS_RATE_LIMIT', arg: 'N', allowed: 'an integer from 1 to 1000000000', help: 'requests per minute allowed for the development key', fallback: 1_000_000, parse: integer(1, 1_000_000_000) },
  {
    key: 'simRate',
    flag: 'sim-rate',
    env: 'MDS_SIM_RATE',
    arg: 'X',
    allowed: 'a number from 0.01 to 100',
    help: 'simulator: multiplies its tick rate (at 1: about 4 quote updates and 1 trade per instrument per second)',
    fallback: 1,
    parse: (raw: string, name: string) => {
      const x = Number(raw.trim());
      if (raw.trim() === '' || !Number.isFinite(x) || x < 0.01 || x > 100) throw new UsageError(`${name} must be a number from 0.01 to 100, got ${JSON.stringify(raw)}`);
      return x;
    },
  },
  { key: 'heartbeatMs', flag: 'heartbeat-ms', env: 'MDS_HEARTBEAT_MS', arg: 'N', allowed: 'an integer from 100 to 3600000', help: 'stream: interval of the heartbeat frame and the server ping, in ms', fallback: 15_000, parse: integer(100, 3_600_000) },
  {
    key: 'slowConsumerBytes',
    flag: 'slow-consumer-bytes',
    env: 'MDS_SLOW_CONSUMER_BYTES',
    arg: 'N',
    allowed: 'an integer from 16384 to 1073741824',
    help: 'stream: unsent bytes after which a connection is closed with 4008',
    fallback: 1_048_576,
    parse: integer(16_384, 1_073_741_824),
  },
  { key: 'minFreeDiskBytes', flag: 'min-free-disk', env: 'MDS_MIN_FREE_DISK', arg: 'SIZE', allowed: 'a size such as 512MiB, 1GiB, 2GB (0: no check)', help: 'warn in /health and the log when the data dir has less free space (0: never)', fallback: 1024 ** 3, shownDefault: '1GiB', parse: byteSize },
  { key: 'retain', flag: 'retain', env: 'MDS_RETAIN', arg: 'LIST', allowed: RETENTION_ALLOWED, help: 'how long completed bars are kept per timeframe, e.g. 1m=30d,1d=forever (unnamed ones keep theirs)', fallback: DEFAULT_RETENTION, shownDefault: formatRetention(DEFAULT_RETENTION), parse: retention },
  {
    key: 'keylessCrypto',
    flag: 'keyless-crypto',
    env: 'MDS_KEYLESS_CRYPTO',
    arg: 'MODE',
    allowed: `one of ${KEYLESS_CRYPTO_MODES.join(', ')}`,
    help: "serve Alpaca-compatible crypto data to requests without a key (the Alpaca SDK sends none there), limited per client address: 'auto' while the development key is on",
    fallback: 'auto',
    parse: oneOf(KEYLESS_CRYPTO_MODES),
  },
  { key: 'logFormat', flag: 'log-format', env: 'MDS_LOG_FORMAT', arg: 'FORMAT', allowed: `one of ${LOG_FORMATS.join(', ')}`, help: "log lines as 'text' (time level message key=value) or 'json' (one object per line)", fallback: 'text', parse: oneOf(LOG_FORMATS) },
  { key: 'logLevel', flag: 'log-level', env: 'MDS_LOG_LEVEL', arg: 'LEVEL', allowed: `one of ${LOG_LEVELS.join(', ')}`, help: `lowest level logged: ${LOG_LEVELS.join(', ')}`, fallback: 'info', parse: oneOf(LOG_LEVELS) },
  { key: 'metricsPort', flag: 'metrics-port', env: 'MDS_METRICS_PORT', arg: 'N', allowed: 'an integer from 0 to 65535', help: 'serve Prometheus metrics at /metrics on this port of --host, open to anyone who can reach it (0 picks a free port)', fallback: null, parse: integer(0, 65535) },
  {
    key: 'metricsToken',
    flag: 'metrics-token',
    env: 'MDS_METRICS_TOKEN',
    arg: 'TOKEN',
    allowed: '16 to 256 printable ASCII characters without spaces',
    help: "serve /metrics on the main port too, to requests with 'Authorization: Bearer TOKEN' (prefer the env var: flags show in ps)",
    fallback: null,
    parse: (raw: string, name: string) => {
      if (raw.length < 16 || raw.length > 256 || /[^\x21-\x7e]/.test(raw)) throw new UsageError(`${name} must be 16 to 256 printable ASCII characters without spaces`);
      return raw;
    },
  },
  {
    key: 'trustProxy',
    flag: 'trust-proxy',
    env: 'MDS_TRUST_PROXY',
    arg: 'LIST',
    allowed: TRUST_PROXY_ALLOWED,
    help: "reverse proxies whose X-Forwarded-For names the client for the per-address limits, e.g. 'loopback' or 10.0.0.0/8 (default: none, the socket's peer)",
    fallback: [],
    shownDefault: 'none',
    parse: (raw: string, name: string) => {
      const list = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
      try {
        trustedProxies(list);
      } catch (err) {
        throw new UsageError(`${name} must be ${TRUST_PROXY_ALLOWED}: ${err instanceof Error ? err.message : String(err)}, got ${JSON.stringify(raw)}`);
      }
      return list;
    },
  },
  { key: 'role', flag: 'role', env: 'MDS_ROLE', arg: 'ROLE', allowed: `one of ${ROLES.join(', ')}`, help: "'all': one process, no NATS; 'ingest': run the feeds and publish to NATS JetStream; 'edge': serve from what an ingest node publishes (see docs/cluster.md)", fallback: 'all', parse: oneOf(ROLES) },
  { key: 'nats', flag: 'nats', env: 'MDS_NATS', arg: 'URLS', allowed: 'NATS server URLs, comma-separated (nats://127.0.0.1:4222)', help: 'NATS server URLs (JetStream enabled) for --role ingest and edge, comma-separated', fallback: null, parse: natsUrls },
  { key: 'natsCreds', flag: 'nats-creds', env: 'MDS_NATS_CREDS', arg: 'FILE', allowed: 'a credentials file path', help: 'NATS credentials file (user JWT and seed)', fallback: null, parse: (raw: string) => raw },
  { key: 'natsTlsCa', flag: 'nats-tls-ca', env: 'MDS_NATS_TLS_CA', arg: 'FILE', allowed: 'a PEM file path', help: "PEM CA certificate to verify the NATS server's certificate with (turns TLS on)", fallback: null, parse: (raw: string) => raw },
  { key: 'natsTlsCert', flag: 'nats-tls-cert', env: 'MDS_NATS_TLS_CERT', arg: 'FILE', allowed: 'a PEM file path', help: 'PEM client certificate for NATS servers that verify clients (with --nats-tls-key)', fallback: null, parse: (raw: string) => raw },
  { key: 'natsTlsKey', flag: 'nats-tls-key', env: 'MDS_NATS_TLS_KEY', arg: 'FILE', allowed: 'a PEM file path', help: 'PEM private key of --nats-tls-cert', fallback: null, parse: (raw: string) => raw },
  { key: 'edgeMaxLagMs', flag: 'edge-max-lag-ms', env: 'MDS_EDGE_MAX_LAG_MS', arg: 'N', allowed: 'an integer from 100 to 3600000', help: "edge: /health says 'degraded' while the edge is further behind the stream than this", fallback: 5_000, parse: integer(100, 3_600_000) },
  { key: 'edgeBootstrapTimeoutS', flag: 'edge-bootstrap-timeout', env: 'MDS_EDGE_BOOTSTRAP_TIMEOUT', arg: 'SECONDS', allowed: 'an integer from 0 to 86400', help: "edge, empty data dir: how long to wait for the ingest node's first snapshot (/health 503 'bootstrapping' meanwhile) before serving only what the stream holds, said in /health and /coverage", fallback: 600, parse: integer(0, 86_400) },
  { key: 'snapshotEveryMin', flag: 'snapshot-every', env: 'MDS_SNAPSHOT_EVERY', arg: 'MINUTES', allowed: 'an integer from 0 to 10080', help: 'ingest: minutes between store snapshots that new edges start from, in the NATS object store (0: none; the first once connected)', fallback: 60, parse: integer(0, 10_080) },
  { key: 'tlsCert', flag: 'tls-cert', env: 'MDS_TLS_CERT', arg: 'FILE', allowed: 'a PEM file path', help: 'PEM certificate (leaf first, then any intermediates): the port serves https and wss (with --tls-key; SIGHUP re-reads both)', fallback: null, parse: (raw: string) => raw },
  { key: 'tlsKey', flag: 'tls-key', env: 'MDS_TLS_KEY', arg: 'FILE', allowed: 'a PEM file path', help: 'PEM private key of --tls-cert', fallback: null, parse: (raw: string) => raw },
  { key: 'workers', flag: 'workers', env: 'MDS_WORKERS', arg: 'N', allowed: 'an integer from 1 to 64', help: 'serving processes sharing the port: above 1, one ingest process runs the feeds and N-1 edges follow it over a NATS server started for them (needs nats-server on PATH; see docs/cluster.md, Several cores)', fallback: 1, parse: integer(1, 64) },
  { key: 'plansFile', flag: 'plans', env: 'MDS_PLANS', arg: 'FILE', allowed: 'a JSON file path', help: 'JSON file that replaces the built-in plans table (see docs/keys.md, Plans)', fallback: null, parse: (raw: string) => raw },
] as const satisfies readonly OptionSpec<keyof ServeConfig>[];

/** Descriptions start two spaces after the longest `--flag ARG`, so every row lines up. */
const HELP_COLUMN = Math.max(...OPTIONS.map((o) => `  --${o.flag} ${o.arg}  `.length));

function helpRow(left: string, text: string, env: string): string {
  return `${`  ${left}`.padEnd(HELP_COLUMN)}${text}\n${''.padEnd(HELP_COLUMN)}env ${env}`;
}

export function serveHelp(): string {
  const rows = OPTIONS.map((o) => helpRow(`--${o.flag} ${o.arg}`, `${o.help}${o.fallback === null ? '' : ` (default ${'shownDefault' in o ? o.shownDefault : o.fallback})`}`, o.env));
  rows.push(helpRow('--no-dev-key', "accept only keys made with 'mds keys create'", 'MDS_NO_DEV_KEY=1'));
  rows.push(helpRow('--reuse-port', 'share the port with other mds processes on this host (SO_REUSEPORT; each process of --workers has it)', 'MDS_REUSE_PORT=1'));
  rows.push(`${'  -h, --help'.padEnd(HELP_COLUMN)}this text`);
  return `Usage: mds serve [options]\n\nRuns the REST API and WebSocket stream on one port, over the LMDB store in the data dir.\n\nOptions:\n${rows.join('\n')}\n`;
}

/**
 * parseArgs's own messages name no allowed values and, for a value that starts with a dash
 * (`--history-days -1`), say only "ambiguous": say which flag, what it takes and how to write it.
 */
function usageOf(err: unknown, argv: string[]): UsageError {
  const message = (err as Error).message;
  const flagMatch = /'(--?[\w-]+)/.exec(message);
  const flag = flagMatch?.[1]?.replace(/^--/, '');
  const spec = OPTIONS.find((o) => o.flag === flag);
  const hint = "Run 'mds serve --help' for the options.";
  if (spec !== undefined) {
    const at = argv.indexOf(`--${spec.flag}`);
    const next = at >= 0 ? argv[at + 1] : undefined;
    const isFlag = next === undefined || next.startsWith('--') || OPTIONS.some((o) => next === `--${o.flag}`);
    if (isFlag) return new UsageError(`--${spec.flag} needs a value: ${spec.allowed}\n${hint}`);
    // A value that starts with a dash: judge it as the value it was meant to be.
    try {
      spec.parse(next, `--${spec.flag}`);
    } catch (parseErr) {
      if (parseErr instanceof UsageError) return new UsageError(`${parseErr.message}\n${hint}`);
    }
    return new UsageError(`--${spec.flag}: a value that starts with '-' must be written --${spec.flag}=${next}\n${hint}`);
  }
  // `--feed replay:./rec speed=max`: the options belong to the spec, after a colon.
  const stray = /^Unexpected argument '((?:speed=|loop)[^']*)'/.exec(message);
  const feedAt = argv.indexOf('--feed');
  if (stray && feedAt >= 0 && isReplayFeed(argv[feedAt + 1] ?? '')) return new UsageError(`--feed: replay options follow the path after a colon: --feed ${argv[feedAt + 1]}:${stray[1]} (${REPLAY_FORMAT})\n${hint}`);
  return new UsageError(`${message.split('\n')[0]}\n${hint}`);
}

/** Parses `mds serve` arguments over the environment; throws UsageError with a clear message. */
export function parseServeConfig(argv: string[], env: Record<string, string | undefined>): ServeConfig | 'help' {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = { help: { type: 'boolean', short: 'h' }, 'no-dev-key': { type: 'boolean' }, 'reuse-port': { type: 'boolean' } };
  for (const o of OPTIONS) options[o.flag] = { type: 'string' };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false }));
  } catch (err) {
    throw usageOf(err, argv);
  }
  if (values.help) return 'help';
  const config: Record<string, unknown> = {};
  for (const o of OPTIONS) {
    const fromFlag = values[o.flag];
    const fromEnv = env[o.env];
    if (typeof fromFlag === 'string') config[o.key] = o.parse(fromFlag, `--${o.flag}`);
    else if (fromEnv !== undefined && fromEnv !== '') config[o.key] = o.parse(fromEnv, o.env);
    else config[o.key] = o.fallback;
  }
  config.noDevKey = values['no-dev-key'] === true || env.MDS_NO_DEV_KEY === '1' || env.MDS_NO_DEV_KEY === 'true';
  config.reusePort = values['reuse-port'] === true || env.MDS_REUSE_PORT === '1' || env.MDS_REUSE_PORT === 'true';
  checkWorkers(config as unknown as ServeConfig);
  checkRole(config as unknown as ServeConfig, typeof values.feed === 'string' || (env.MDS_FEED ?? '') !== '');
  checkTls(config as unknown as ServeConfig);
  return config as unknown as ServeConfig;
}

/** A certificate without its key (or the reverse) cannot serve TLS: say which one is missing. */
function checkTls(c: ServeConfig): void {
  if (c.tlsCert !== null && c.tlsKey === null) throw new UsageError('--tls-cert needs --tls-key FILE (MDS_TLS_KEY): the PEM private key of the certificate');
  if (c.tlsKey !== null && c.tlsCert === null) throw new UsageError('--tls-key needs --tls-cert FILE (MDS_TLS_CERT): the PEM certificate of the key');
}

/** --workers runs its own ingest process, edges and NATS server: the flags of a cluster node are theirs. */
function checkWorkers(c: ServeConfig): void {
  if (c.workers === 1) return;
  if (c.role !== 'all') throw new UsageError(`--workers runs one ingest process and edges itself: leave out --role (got --role ${c.role})`);
  if (c.nats !== null) throw new UsageError('--workers starts a NATS server of its own for its processes: leave out --nats (for a NATS server of yours, run --role ingest and --role edge processes: docs/cluster.md)');
}

/** The flags a role needs and those it cannot take. */
function checkRole(c: ServeConfig, feedGiven: boolean): void {
  if (c.role === 'all') {
    if (c.nats !== null) throw new UsageError("--nats is for --role ingest or edge; a single process (--role all, the default) needs no NATS");
    return;
  }
  if (c.nats === null) throw new UsageError(`--role ${c.role} needs --nats URLS (the NATS servers, JetStream enabled), e.g. --nats nats://127.0.0.1:4222`);
  if ((c.natsTlsCert === null) !== (c.natsTlsKey === null)) throw new UsageError('--nats-tls-cert and --nats-tls-key go together');
  if (c.role === 'edge' && feedGiven && c.feed !== 'none') throw new UsageError(`--role edge runs no feed of its own (its data comes from the ingest node over NATS): leave out --feed, got --feed ${c.feed}`);
  if (c.role === 'edge') c.feed = 'none';
}
