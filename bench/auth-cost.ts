// What the key check and the call counting cost a quote request (issue 3: under 10%). The gate the
// server runs on every request is timed in this process over real accounts in a real store: a
// metered `pro` key (quota window and per-minute rate, usage persisted) and the development key;
// the cost is set against the time one quote request takes in the same run (1 / our req/s).
import { Authenticator } from '../src/auth/authenticator.ts';
import { createGate } from '../src/api/plugins/gate.ts';
import { systemClock } from '../src/clock.ts';
import { BUILT_IN_PLANS } from '../src/domain/plans.ts';
import { Store } from '../src/store/index.ts';
import { removeDir, tempDir } from './lib/proc.ts';

const CALLS = 400_000;
const ROUNDS = 5;
const DEV_KEY = 'bench-dev-key-0123456789';

export interface AuthCost {
  /** Median µs per gate pass with a metered key. */
  meteredUs: number;
  /** Median µs per gate pass with the development key (unmetered). */
  devUs: number;
}

export async function measureAuthCost(path: string): Promise<AuthCost> {
  const dir = tempDir('mds-bench-auth-');
  const store = Store.open({ dataDir: dir });
  try {
    const { secret } = store.accounts.create({ name: 'bench', plan: 'pro', markets: ['*'], addons: [] }, systemClock.nowMs());
    await store.flush();
    // A quota no run can exhaust, so every call is counted and allowed.
    const plans = BUILT_IN_PLANS.map((p) => (p.name === 'pro' ? { ...p, quota: 1e11, per_minute: 1e9 } : p));
    const auth = new Authenticator({ store, clock: systemClock, plans, devKey: DEV_KEY, devPerMinute: 1e9 });
    const gate = createGate(auth, systemClock, () => '127.0.0.1');
    const time = (key: string) => {
      // Requests built once: what is timed is the gate, not the construction of test requests.
      const requests = Array.from({ length: 256 }, () => new Request(`http://127.0.0.1:8080${path}`, { headers: { 'x-api-key': key, accept: '*/*' } }));
      const samples: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const started = performance.now();
        for (let i = 0; i < CALLS; i++) {
          const answer = gate({ request: requests[i & 255]!, set: { headers: {} } });
          if (answer !== undefined) throw new Error(`the gate refused a bench request with ${answer instanceof Response ? answer.status : 'a wait'}`);
        }
        samples.push(((performance.now() - started) * 1000) / CALLS);
      }
      return samples.sort((a, b) => a - b)[ROUNDS >> 1]!;
    };
    return { meteredUs: time(secret), devUs: time(DEV_KEY) };
  } finally {
    await store.close();
    removeDir(dir);
  }
}
