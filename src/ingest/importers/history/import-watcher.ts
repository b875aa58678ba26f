// The server's side of history imports: `mds import` stages a file in the journal while the server
// runs, and the server applies it (it alone writes bars, so its bars in progress and caches stay
// right), between requests, then records the outcome the command is waiting for. At start it
// finishes what a crash left half-applied, then what it left staged; while it runs it drops the
// stagings whose importing process is gone (at start, and every few seconds).
import type { Clock } from '../../../clock.ts';
import type { Store } from '../../../store/index.ts';
import { applyImport, type ApplyHooks } from './apply-bars.ts';

/** Polls of the journal between looks for stagings whose import process died. */
const DEAD_STAGING_EVERY_POLLS = 5;

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

  /** Finishes what a stop cut short, applies what is staged now, then watches the journal every `pollMs`. */
  async start(pollMs = 200): Promise<void> {
    this.dropDeadStagings();
    // Imports left `applying` were cut short by a stop: /health says so until they are finished.
    await this.store.imports.markCutShort(this.clock.nowMs()).catch((err: unknown) => this.log(`error: imports cut short could not be marked: ${(err as Error).message}`));
    this.store.imports.changed();
    let polls = 0;
    this.timer ??= setInterval(() => {
      if (++polls % DEAD_STAGING_EVERY_POLLS === 0) this.dropDeadStagings();
      if (this.store.imports.changed()) void this.applyStaged();
    }, pollMs);
    return this.applyStaged();
  }

  /** Drops the stagings (record and file) of import processes that died before marking them staged. */
  private dropDeadStagings(): void {
    for (const record of this.store.imports.inState('staging')) {
      if (record.pid !== process.pid && !isProcessAlive(record.pid)) {
        this.log(`import ${record.id} (${record.source}): its import process ${record.pid} is gone; dropping what it staged`);
        void this.store.imports.discard(record.id);
      }
    }
  }

  stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.running ?? Promise.resolve();
  }

  /** Applies every cut short import, then every staged one, oldest first; one pass at a time. */
  applyStaged(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        // Only this pass applies: an import found `applying` here was cut short, and goes first.
        for (const record of [...this.store.imports.inState('applying'), ...this.store.imports.inState('staged')]) {
          const started = performance.now();
          const cutShort = record.state === 'applying';
          if (cutShort) this.log(`import ${record.id} (${record.source}): half-applied when the process applying it stopped; finishing it from its staging file`);
          const done = await applyImport(this.store, record, this.clock.nowMs(), this.hooks);
          if (done.state === 'applied') {
            const { result } = done;
            this.log(`import ${record.id} (${record.source}): ${cutShort ? 'finished' : 'applied'} in ${Math.round(performance.now() - started)} ms: ${result.added} bars added, ${result.replaced} replaced, ${result.kept} kept`);
          } else {
            this.log(`error: import ${record.id} (${record.source}): applying failed: ${done.error}`);
          }
        }
      } while (this.again);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }
}
