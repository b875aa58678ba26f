// The server's side of history imports: `mds import` stages a file in the journal while the server
// runs, and the server applies it (it alone writes bars, so its bars in progress and caches stay
// right), between requests, then records the outcome the command is waiting for. At start it
// applies what a crash left staged and drops stagings whose importing process is gone.
import type { Clock } from '../../../clock.ts';
import type { Store } from '../../../store/index.ts';
import { applyStagedImport, type ApplyHooks } from './apply-bars.ts';

/** Whether a process is alive (signal 0), for stagings whose importer may have died. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export class ImportWatcher {
  private timer: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly hooks: ApplyHooks,
    private readonly log: (line: string) => void,
  ) {}

  /** Applies what is staged now, then watches the journal every `pollMs`. */
  start(pollMs = 200): Promise<void> {
    for (const record of this.store.imports.inState('staging')) {
      if (record.pid !== process.pid && !isProcessAlive(record.pid)) {
        this.log(`import ${record.id} (${record.source}): its import process ${record.pid} is gone; dropping what it staged`);
        void this.store.imports.discard(record.id);
      }
    }
    this.store.imports.changed();
    this.timer ??= setInterval(() => {
      if (this.store.imports.changed()) void this.applyStaged();
    }, pollMs);
    return this.applyStaged();
  }

  stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.running ?? Promise.resolve();
  }

  /** Applies every staged import, oldest first; one pass at a time. */
  applyStaged(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        for (const record of this.store.imports.inState('staged')) {
          const started = performance.now();
          try {
            const result = await applyStagedImport(this.store, record, this.clock.nowMs(), this.hooks);
            await this.store.imports.finish(record.id, 'applied', result);
            this.log(`import ${record.id} (${record.source}): applied in ${Math.round(performance.now() - started)} ms: ${result.added} bars added, ${result.replaced} replaced, ${result.kept} kept`);
          } catch (err) {
            const error = (err as Error).message;
            this.log(`error: import ${record.id} (${record.source}): applying failed: ${error}`);
            await this.store.imports.finish(record.id, 'failed', { written: {}, added: 0, replaced: 0, unchanged: 0, kept: 0, live: 0, appliedMs: this.clock.nowMs(), error }).catch(() => {});
          }
        }
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
