// The console's one door to mds: the typed client with the key the user gave, a fetch that reads
// every answer's X-RateLimit-* headers (the key panel shows them), and per-class calls by name.
// Everything the console shows comes through these public routes and the stream, with the key's
// own entitlements and quota: the console is an ordinary API client.
import { MdsClient, MdsError, type MdsStream } from '../../../client/src/index.ts';
import type { FetchLike } from '../../../client/src/http.ts';
import type { Account, Coverage, Health, Range, SessionList, Snapshot } from '../../../client/src/generated.ts';

/** The classes with per-class routes and stream channels. */
export const CLASSES = ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities', 'perpetuals', 'overnight'] as const;
export type AssetClass = (typeof CLASSES)[number];
export const isAssetClass = (s: string): s is AssetClass => (CLASSES as readonly string[]).includes(s);
/** Classes whose trades channel carries prints; forex, indices and ETFs have no tape (their "last" is the mid). */
export const HAS_TAPE: ReadonlySet<AssetClass> = new Set(['crypto', 'stocks', 'commodities', 'perpetuals', 'overnight']);

/** Where the key stands, from the latest answer's headers: the window closest to running out. */
export interface RateHeaders {
  limit: number;
  remaining: number;
  resetMs: number;
}


export type Timespan = 'minute' | 'hour' | 'day';

export interface RangeArgs {
  symbol: string;
  multiplier: number;
  timespan: Timespan;
  from: string;
  to: string;
  limit?: number;
  sort?: 'asc' | 'desc';
  /** Stocks only: split and dividend adjusted bars (raw when absent). */
  adjustment?: 'raw' | 'split' | 'dividend' | 'all';
}

const capitalized = (cls: AssetClass) => `${cls[0]!.toUpperCase()}${cls.slice(1)}`;

type Method<A, R> = (args: A) => Promise<R>;

export class ConsoleApi {
  readonly client: MdsClient;
  /** For the open routes (/health): without the key, so their keyless-limit headers stay out of the key panel. */
  private readonly open: MdsClient;
  /** Called with the headers of every answer that carries them. */
  onRate: ((rate: RateHeaders) => void) | null = null;
  /** Called when the server refuses the key itself (401): the page asks for another. */
  onKeyRefused: ((message: string) => void) | null = null;

  constructor(readonly key: string, baseUrl = location.origin) {
    const base = globalThis.fetch.bind(globalThis);
    const watched: FetchLike = async (url, init) => {
      const res = await base(url, init);
      const limit = Number(res.headers.get('x-ratelimit-limit'));
      const remaining = Number(res.headers.get('x-ratelimit-remaining'));
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      // Only answers a valid key got: a refused key's headers describe the keyless limit instead.
      if (res.status !== 401 && res.headers.has('x-ratelimit-limit') && Number.isFinite(limit) && Number.isFinite(remaining)) {
        this.onRate?.({ limit, remaining, resetMs: reset * 1000 });
      }
      return res;
    };
    this.client = new MdsClient({ baseUrl, apiKey: key, fetch: watched });
    this.open = new MdsClient({ baseUrl });
  }

  health(): Promise<Health> {
    return this.open.getHealth();
  }

  /** Runs a call; a 401 (the key is missing, wrong or revoked) also goes to onKeyRefused. */
  async call<T>(run: (c: MdsClient) => Promise<T>): Promise<T> {
    try {
      return await run(this.client);
    } catch (err) {
      if (err instanceof MdsError && err.status === 401) this.onKeyRefused?.(err.message);
      throw err;
    }
  }

  /** A per-class route by its operation's suffix: `getCryptoSnapshot`, `getStocksRange`, `getEtfsCoverage`. */
  private classMethod<A, R>(cls: AssetClass, suffix: 'Snapshot' | 'Range' | 'Coverage'): Method<A, R> {
    const name = `get${capitalized(cls)}${suffix}`;
    const fn = (this.client as unknown as Record<string, unknown>)[name];
    if (typeof fn !== 'function') throw new Error(`the client has no ${name}`);
    return (fn as Method<A, R>).bind(this.client);
  }

  account(): Promise<Account> {
    return this.call((c) => c.getAccount());
  }

  snapshot(cls: AssetClass, symbol: string): Promise<Snapshot> {
    return this.call(() => this.classMethod<{ symbol: string }, Snapshot>(cls, 'Snapshot')({ symbol }));
  }

  range(cls: AssetClass, args: RangeArgs): Promise<Range> {
    return this.call(() => this.classMethod<RangeArgs, Range>(cls, 'Range')(args));
  }

  coverage(cls: AssetClass, args: { symbol: string; timeframe: string; from: string; to: string }): Promise<Coverage> {
    return this.call(() => this.classMethod<typeof args, Coverage>(cls, 'Coverage')(args));
  }

  sessions(market: string, from: string, to: string): Promise<SessionList> {
    return this.call((c) => c.listMarketSessions({ market, from, to }));
  }

  /** A watchlist shows the newest price: a tab in the background or a slow link gets conflated quotes, not a 4008. */
  stream(): MdsStream {
    return this.client.stream({ snapshot: true, slow: 'conflate' });
  }

}

/** The message of an error for the page: the server's own words, with the status. */
export function describeError(err: unknown): string {
  if (err instanceof MdsError) return `${err.status}: ${err.message}`;
  if (err instanceof Error) return err.message;
  return String(err);
}

export { MdsError, type Account };
