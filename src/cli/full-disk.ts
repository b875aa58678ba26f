// A start on a full disk is refused with a clear message (exit 2) instead of a crash after it
// has begun serving: a server that cannot write would lose its feed's data from its first second.
import { UsageError } from '../config.ts';
import { formatBytes } from '../store/index.ts';

/** Less free space than this on the data dir's file system and a start is refused. */
export const START_MIN_FREE_BYTES = 16 << 20;

/** Throws the refusal when `freeBytes` is under the minimum, or always when the first writes failed (`err`). */
export function refuseFullDisk(dataDir: string, freeBytes: number | null, err?: unknown): void {
  if (err === undefined && (freeBytes === null || freeBytes >= START_MIN_FREE_BYTES)) return;
  const cause = err === undefined ? `mds needs at least ${formatBytes(START_MIN_FREE_BYTES)} to start` : `writing failed: ${err instanceof Error ? err.message : String(err)}`;
  throw new UsageError(`the disk of the data dir ${dataDir} is full (${formatBytes(freeBytes)} free; ${cause}): free space there (see docs/operations.md, A full disk) and start again`);
}

