#!/usr/bin/env bun
// Wiring only: dispatches `mds <command>` to its module and turns usage errors into exit code 2.
// Each command's module is loaded when it runs: `mds keys list` or `mds --version` does not pay
// for loading the server (the REST app, the feeds, NATS), which takes about a second.
import { parseServeConfig, serveHelp, UsageError, WORKERS_SUPERVISOR_ENV } from './config.ts';
import { COMMIT, VERSION } from './version.ts';
import { UnusableStoreError } from './store/store-file.ts';

const HELP = `mds ${VERSION}: a self-hosted market data service (REST + WebSocket over an embedded store)

Usage: mds <command> [options]

Commands:
  serve        run the service (REST and WebSocket on one port, the built-in simulator by default)
  keys         create, list, show, update and revoke API keys
  import       load data files into the data dir ('mds import bars|ticks|fundamentals|bonds|calendar FILE')
  backup       copy a data dir consistently, also while a server runs on it ('mds backup --to DIR')
  feeds        list the feeds 'serve --feed' can run and what each supplies
  compact      give the space of removed bars back to the disk (no server running; 'mds compact --help')
  coverage     which bar slots of a symbol have bars, are quiet or are gaps ('mds coverage BTCUSD')
  mcp          the MCP server for AI agents over stdio ('mds mcp --data-dir DIR', or --url URL --key KEY)

Options:
  -h, --help      this text ('mds serve --help' lists the serve options)
  -v, --version   print the version and build commit
`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(HELP);
    return command === undefined ? 2 : 0;
  }
  if (command === '-v' || command === '--version') {
    process.stdout.write(`mds ${VERSION} (${COMMIT})\n`);
    return 0;
  }
  if (command === 'serve') {
    const config = parseServeConfig(rest, process.env);
    if (config === 'help') {
      process.stdout.write(serveHelp());
      return 0;
    }
    if (config.workers > 1) {
      const { startWorkers } = await import('./cli/workers.ts');
      const line = (stream: NodeJS.WriteStream) => (text: string) => void stream.write(`${text}\n`);
      const workers = await startWorkers(config, rest, process.env, line(process.stdout), line(process.stderr));
      const onSignal = () => void workers.stop();
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      if (config.tlsCert !== null) process.on('SIGHUP', () => workers.reloadTls());
      return await workers.done;
    }
    // SIGHUP re-reads the certificate; one during the start is applied once the server listens.
    // Without TLS, SIGHUP keeps its default (the process ends), as before.
    let reloadTls: (() => boolean) | null = null;
    let reloadAsked = false;
    if (config.tlsCert !== null) process.on('SIGHUP', () => (reloadTls === null ? (reloadAsked = true) : reloadTls()));
    // A process of --workers: once its supervisor is gone, its output has no reader. A write must not
    // end it (SIGPIPE) before the stop below has written everything to disk.
    const supervisor = Number(process.env[WORKERS_SUPERVISOR_ENV] ?? '') || 0;
    if (supervisor > 0) {
      process.on('SIGPIPE', () => {});
      process.stdout.on('error', () => {});
      process.stderr.on('error', () => {});
    }
    const { serve } = await import('./cli/serve.ts');
    const server = await serve(config);
    reloadTls = server.reloadTls;
    if (reloadAsked) reloadTls();
    await new Promise<void>((resolveStop) => {
      const onSignal = () => void server.stop().then(resolveStop);
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
      if (supervisor > 0) {
        const watch = setInterval(() => {
          if (process.ppid === supervisor) return;
          // Its output went to the supervisor: nobody reads it now, and the stop proceeds unlogged.
          clearInterval(watch);
          onSignal();
        }, 1000);
      }
    });
    return 0;
  }
  if (command === 'keys') return (await import('./cli/keys.ts')).runKeys(rest, process.env, (text) => process.stdout.write(text));
  if (command === 'import') return (await import('./cli/import.ts')).runImport(rest, process.env, { out: (text) => process.stdout.write(text), err: (text) => process.stderr.write(text), isTty: process.stderr.isTTY === true });
  if (command === 'backup') return (await import('./cli/backup.ts')).runBackup(rest, process.env, { out: (text) => process.stdout.write(text) });
  if (command === 'feeds') return (await import('./cli/feeds.ts')).runFeeds(rest, (text) => process.stdout.write(text));
  if (command === 'compact') return (await import('./cli/compact.ts')).runCompact(rest, process.env, { out: (text) => process.stdout.write(text) });
  if (command === 'coverage') return (await import('./cli/coverage.ts')).runCoverage(rest, process.env, { out: (text) => process.stdout.write(text) });
  // stdout carries the protocol: help goes there only when asked for.
  if (command === 'mcp') return (await import('./cli/mcp.ts')).runMcp(rest, process.env, { out: (text) => process.stdout.write(text) });
  throw new UsageError(`unknown command ${JSON.stringify(command)}; run 'mds --help' for the commands`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    // A data dir that cannot be opened safely is the operator's to mend, like a bad flag.
    if (err instanceof UsageError || err instanceof UnusableStoreError) {
      process.stderr.write(`mds: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`mds: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
