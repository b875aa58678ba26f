// The README's quick start and tour are run, so the front page cannot go stale.
//
// Convention (docs/development.md, "The README is tested"): every ```sh block of README.md is
// run, one command per line (a line ending in `\` continues on the next; blank lines and `#`
// comments are skipped). The first ```sh block is the quick start's set-up, `npm ci && npm start`
// and `npm ci && npm test`: the server of this test is started with `npm start` itself, and the
// `npm ci` / `npm test` halves are checked rather than run (they would reinstall the shared
// node_modules and run this very suite). Every later command runs in bash from the checkout,
// against that server: `localhost:8080` is rewritten to its port, KEY holds the development key it
// printed (as the reader copies it), and MDS_DATA_DIR points `mds` commands at its data dir. A
// command passes when it exits 0 within its timeout and every line of its output that looks like
// JSON parses and is not an mds error body.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, fencedBlocks, read } from './markdown.ts';

const SETUP = ['npm ci && npm start', 'npm ci && npm test'];
const COMMAND_TIMEOUT_MS = 60_000;

/** The commands of a block: continuation lines joined, comments and blank lines left out. */
function commandsOf(lines: string[]): string[] {
  const out: string[] = [];
  let pending = '';
  for (const line of lines) {
    if (pending === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    out.push((pending + line).trim());
    pending = '';
  }
  if (pending !== '') out.push(pending.trim());
  return out;
}

/** A command without its trailing `# comment` (only those after two spaces, as the README writes them). */
function withoutComment(command: string): string {
  return command.replace(/\s{2,}#.*$/, '').trim();
}

const shBlocks = fencedBlocks(read('README.md')).filter((b) => b.info === 'sh');
const [setupBlock, ...tourBlocks] = shBlocks;
const tourCommands = tourBlocks.flatMap((b) => commandsOf(b.lines).map((command) => ({ command, line: b.line })));

interface Server {
  process: ChildProcess;
  port: number;
  key: string;
  dataDir: string;
  output: string[];
}

let server: Server | null = null;

/** `npm start`, as the quick start says, on a temporary data dir and a free port. */
async function npmStart(): Promise<Server> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mds-readme-'));
  const env = {
    ...process.env,
    MDS_PORT: '0',
    MDS_HOST: '127.0.0.1',
    MDS_DATA_DIR: dataDir,
    // A shorter first history than the default 31 days and 5 years, so the test stays fast.
    MDS_HISTORY_DAYS: '1',
    MDS_HISTORY_YEARS: '0',
  };
  const child = spawn('npm', ['start'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  return new Promise<Server>((resolve, reject) => {
    let port: number | null = null;
    let key: string | null = null;
    const onData = (chunk: Buffer) => {
      const text = chunk.toString();
      output.push(text);
      port ??= Number(/serving REST on http:\/\/127\.0\.0\.1:(\d+)/.exec(text)?.[1] ?? NaN) || null;
      key ??= /development API key \(send as x-api-key\): (\S+)/.exec(text)?.[1] ?? null;
      if (port !== null && key !== null) resolve({ process: child, port, key, dataDir, output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`npm start exited with ${code} before serving:\n${output.join('')}`)));
  });
}

async function stop(s: Server): Promise<void> {
  // npm runs the server as a grandchild: stop the server by the pid it keeps in its data dir,
  // then npm ends with it.
  const exited = new Promise((resolve) => s.process.once('exit', resolve));
  try {
    process.kill(Number(readFileSync(join(s.dataDir, 'mds.pid'), 'utf8').trim()), 'SIGTERM');
  } catch {
    s.process.kill('SIGTERM');
  }
  await exited;
  rmSync(s.dataDir, { recursive: true, force: true });
}

async function run(command: string, s: Server): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const local = command.replaceAll('localhost:8080', `127.0.0.1:${s.port}`);
  const proc = Bun.spawn(['bash', '-c', local], {
    cwd: ROOT,
    env: { ...process.env, KEY: s.key, MDS_DATA_DIR: s.dataDir },
    stdout: 'pipe',
    stderr: 'pipe',
    timeout: COMMAND_TIMEOUT_MS,
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe('README quick start', () => {
  test('the set-up block is the two commands the quick start promises', () => {
    expect(setupBlock).toBeDefined();
    expect(commandsOf(setupBlock!.lines).map(withoutComment)).toEqual(SETUP);
  });

  test('npm ci can install: package-lock.json matches package.json', () => {
    const pkg = JSON.parse(read('package.json'));
    const lock = JSON.parse(read('package-lock.json'));
    expect(lock.packages[''].dependencies).toEqual(pkg.dependencies);
    expect(lock.packages[''].devDependencies).toEqual(pkg.devDependencies);
  });

  test('npm test typechecks and runs every test', () => {
    const scripts = JSON.parse(read('package.json')).scripts;
    // Every test file under test/ (no path filter), the typecheck among them as a test file that
    // runs the same tsc projects as npm run typecheck.
    expect(scripts.test).toMatch(/^bun test --timeout 60000 --parallel=2 --no-isolate --timings=test\/timings\.json$/);
    const typecheck = read('test/typecheck.test.ts');
    for (const project of scripts.typecheck.split(' && ').map((c: string) => c.replace(/^tsc --noEmit -p /, ''))) expect(typecheck).toContain(`'${project}'`);
  });
});

describe('README tour, against a server started with npm start', () => {
  beforeAll(async () => {
    server = await npmStart();
  }, 90_000);

  afterAll(async () => {
    if (server) await stop(server);
  }, 30_000);

  test('the tour has commands to run', () => {
    expect(tourCommands.length).toBeGreaterThanOrEqual(6);
  });

  for (const { command, line } of tourCommands) {
    test(`README.md:${line}: ${command}`, async () => {
      const { code, stdout, stderr } = await run(command, server!);
      expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
      for (const outLine of stdout.split('\n').filter((l) => /^\s*[[{]/.test(l))) {
        const parsed = JSON.parse(outLine);
        const isErrorBody = typeof parsed?.status === 'number' && parsed.status >= 400 && 'error' in parsed;
        expect(isErrorBody ? outLine : 'not an error').toBe('not an error');
      }
    }, COMMAND_TIMEOUT_MS + 5_000);
  }
});
