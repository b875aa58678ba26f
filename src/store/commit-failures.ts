// What a failed LMDB commit looks like, and the guard that keeps one from ending the process:
// when a commit fails (disk full, I/O error), lmdb-js rejects the promises of that transaction,
// some of which no caller holds, and its `commitError` with the cause; unhandled, the runtime exits.
const COMMIT_FAILED = 'Commit failed';

/** The cause lmdb-js attaches to a failed commit's rejection, if any. */
export function commitCause(err: unknown): Promise<unknown> | undefined {
  const cause = (err as { commitError?: unknown } | null)?.commitError;
  return cause instanceof Promise ? cause : undefined;
}

/** True for lmdb-js's rejection of a failed commit, or the cause it carries. */
export function isCommitFailure(reason: unknown): boolean {
  if (!(reason instanceof Error)) return false;
  if (reason.message.startsWith(COMMIT_FAILED)) return true;
  // The cause: lmdb-js's error with the errno as a number code, raised from its write path.
  return typeof (reason as { code?: unknown }).code === 'number' && /lmdb/.test(reason.stack ?? '');
}

/** The short human reason of a failure: "No space left on device", not lmdb-js's page positions. */
export function failureText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  // lmdb-js's own rejection names no cause: say what failed until the cause is known.
  if (message.startsWith(COMMIT_FAILED)) return 'a commit failed';
  return message.split(':')[0]!.trim() || message;
}

let isGuarded = false;

/**
 * Installs, once per process, a handler for unhandled rejections that takes failed commits as
 * handled (the write queue reports and retries them) and rethrows anything else, so other
 * unhandled rejections still end the process as before.
 */
export function guardCommitFailures(): void {
  if (isGuarded) return;
  isGuarded = true;
  process.on('unhandledRejection', (reason) => {
    if (isCommitFailure(reason)) {
      // Also the cause's own rejection, which nobody else may hold.
      commitCause(reason)?.catch(() => {});
      return;
    }
    throw reason;
  });
}
