// wrk as the HTTP load generator: installs it when missing (Debian package, as root), runs it
// pinned to the load core with a hard time bound, and parses its `--latency` report.
import { spawnSync } from 'node:child_process';
import { LOAD_CORE, spawnPinned, withTimeout } from './proc.ts';

export function ensureWrk(log: (line: string) => void): void {
  ensureDebianCommand('wrk', 'wrk', log);
}

/** Installs the Debian package that provides `command` when it is missing (as root, with apt-get). */
export function ensureDebianCommand(command: string, pkg: string, log: (line: string) => void): void {
  if (Bun.which(command)) return;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot || !Bun.which('apt-get')) {
    throw new Error(`${command} is not installed. Install it first, e.g. \`sudo apt-get update && sudo apt-get install -y ${pkg}\` (Debian/Ubuntu), then rerun \`npm run bench\`.`);
  }
  log(`${command} not found: installing it with apt-get (Debian package ${pkg})`);
  for (const args of [['update'], ['install', '-y', pkg]]) {
    const res = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], timeout: 180_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    if (res.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${res.status ?? res.signal}); install ${pkg} by hand and rerun`);
  }
  if (!Bun.which(command)) throw new Error(`apt-get installed ${pkg} but ${command} is not on PATH`);
}

export interface WrkResult {
  requestsPerS: number;
  requests: number;
  seconds: number;
  /** What wrk counted as read per second (headers and bodies), in MB (10^6 bytes). */
  transferMBPerS: number;
  latencyMs: { avg: number; max: number; p50: number; p75: number; p90: number; p99: number };
  non2xx: number;
  socketErrors: { connect: number; read: number; write: number; timeout: number };
  /** CPU wrk itself used, as a share of one core (near 1: the load generator may be the limit). */
  loadCpuShare: number | null;
}

export interface WrkOptions {
  seconds: number;
  connections: number;
  threads?: number;
  headers?: Record<string, string>;
}

export async function runWrk(url: string, opts: WrkOptions): Promise<WrkResult> {
  const args = ['wrk', `-t${opts.threads ?? 1}`, `-c${opts.connections}`, `-d${opts.seconds}s`, '--timeout', '10s', '--latency'];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(url);
  const child = spawnPinned(LOAD_CORE, args);
  const started = performance.now();
  let code: number | null;
  try {
    code = await withTimeout(child.proc.exited, (opts.seconds + 20) * 1000, `wrk ${url}`);
  } catch (err) {
    await child.stop(1000);
    throw err;
  }
  await child.stdout.done;
  const wallS = (performance.now() - started) / 1000;
  const out = child.stdout.text();
  if (code !== 0) throw new Error(`wrk exited with code ${code}: ${child.stderr.text() || out}`);
  const usage = child.proc.resourceUsage();
  const result = parseWrk(out);
  result.loadCpuShare = usage ? Number(usage.cpuTime.total) / 1e6 / wallS : null;
  return result;
}

const TIME_UNIT_MS: Record<string, number> = { us: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const SIZE_UNIT_B: Record<string, number> = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

function timeMs(text: string | undefined, what: string): number {
  const m = text?.match(/^([\d.]+)(us|ms|s|m|h)$/);
  if (!m) throw new Error(`cannot parse wrk ${what}: ${JSON.stringify(text)}`);
  return Number(m[1]) * TIME_UNIT_MS[m[2]!]!;
}

/** Parses wrk 4.x output run with `--latency`. */
export function parseWrk(out: string): WrkResult {
  const need = (re: RegExp, what: string): RegExpMatchArray => {
    const m = out.match(re);
    if (!m) throw new Error(`cannot find ${what} in wrk output:\n${out}`);
    return m;
  };
  const latencyLine = need(/^\s*Latency\s+(\S+)\s+(\S+)\s+(\S+)/m, 'the latency line');
  const pct = (p: number) => timeMs(need(new RegExp(`^\\s*${p}%\\s+(\\S+)`, 'm'), `the ${p}% latency`)[1], `${p}% latency`);
  const total = need(/(\d+) requests in ([\d.]+)(us|ms|s|m|h),/, 'the request count');
  const transfer = need(/Transfer\/sec:\s+([\d.]+)(B|KB|MB|GB|TB)/, 'Transfer/sec');
  const socket = out.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const non2xx = out.match(/Non-2xx or 3xx responses: (\d+)/);
  return {
    requestsPerS: Number(need(/Requests\/sec:\s+([\d.]+)/, 'Requests/sec')[1]),
    requests: Number(total[1]),
    seconds: timeMs(`${total[2]}${total[3]}`, 'duration') / 1000,
    transferMBPerS: (Number(transfer[1]) * SIZE_UNIT_B[transfer[2]!]!) / 1e6,
    latencyMs: { avg: timeMs(latencyLine[1], 'avg latency'), max: timeMs(latencyLine[3], 'max latency'), p50: pct(50), p75: pct(75), p90: pct(90), p99: pct(99) },
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: socket ? { connect: Number(socket[1]), read: Number(socket[2]), write: Number(socket[3]), timeout: Number(socket[4]) } : { connect: 0, read: 0, write: 0, timeout: 0 },
    loadCpuShare: null,
  };
}

/** A measurement is only worth reporting when every request got a 2xx and no socket failed. */
export function wrkProblems(r: WrkResult): string[] {
  const problems: string[] = [];
  if (r.non2xx > 0) problems.push(`${r.non2xx} non-2xx responses`);
  const e = r.socketErrors;
  if (e.connect + e.read + e.write + e.timeout > 0) problems.push(`socket errors: connect ${e.connect}, read ${e.read}, write ${e.write}, timeout ${e.timeout}`);
  return problems;
}
