// Checks the listen address before anything is created on disk, and words a failed listen for an
// operator: Bun's own errors ("Failed to start server", ENOENT) do not say which address failed.
import { lookup } from 'node:dns/promises';
import { UsageError } from '../config.ts';

/** Throws a UsageError naming the host when it resolves to no address. */
export async function checkListenHost(host: string): Promise<void> {
  try {
    await lookup(host);
  } catch {
    throw new UsageError(`--host ${JSON.stringify(host)} does not resolve to an address: give a host name or IP address of this machine (default 0.0.0.0, every address)`);
  }
}

/** A listen that failed at run time (port taken, address not on this machine): exit code 1. */
export function listenFailure(host: string, port: number, err: unknown): Error {
  const reason = err instanceof Error ? err.message : String(err);
  return new Error(`cannot listen on ${host}:${port}: ${reason}`);
}
