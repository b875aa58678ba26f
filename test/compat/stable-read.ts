// Reads a live value two ways (native route, vendor SDK) until the native value did not change
// around the SDK call, so the two can be compared exactly while the simulator keeps ticking.
import { expect } from 'bun:test';

export async function stableRead<N, S>(native: () => Promise<N>, sdk: () => Promise<S>, attempts = 50): Promise<{ native: N; sdk: S }> {
  for (let i = 0; i < attempts; i++) {
    const before = await native();
    const got = await sdk();
    const after = await native();
    if (JSON.stringify(before) === JSON.stringify(after)) return { native: before, sdk: got };
  }
  expect(`a stable value within ${attempts} attempts`).toBe('never reached');
  throw new Error('unreachable');
}
