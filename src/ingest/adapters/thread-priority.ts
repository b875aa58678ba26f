// A venue worker's scheduling priority below the serving thread (Linux nice, per thread): where the
// two share a core, requests and the stream go first and a flood from a venue waits (and, once the
// serving thread is behind, conflates: tick-batch.ts). With a core of its own the worker runs at
// full speed regardless.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

export const FEED_WORKER_NICE = 10;

/** Lowers the calling thread's priority where the OS allows it per thread (Linux); elsewhere a no-op. */
export function lowerThreadPriority(nice = FEED_WORKER_NICE): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // not Linux, or not permitted: the thread keeps the process's priority
  }
}
