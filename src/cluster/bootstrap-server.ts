// What a new edge's port answers while it waits for the ingest node's first snapshot (before its
// store exists): /health 503 with status `bootstrapping` and the progress, every other route and
// the stream 503 with the error body, so neither a load balancer nor a client takes an empty store
// for the market. The server proper takes the port over once the snapshot is in.
import type { Server } from 'bun';

export interface BootstrapProgress {
  /** connecting: to NATS; waiting: for a snapshot to be published; downloading: the snapshot. */
  state: 'connecting' | 'waiting' | 'downloading';
  waitedS: number;
  timeoutS: number;
  /** Snapshot bytes downloaded so far, of `totalBytes` (null before the download starts). */
  bytes: number;
  totalBytes: number | null;
  /** Why the last attempt failed (NATS unreachable, a download cut short), or null. */
  lastError: string | null;
}

const RETRY_AFTER_S = '5';

export class BootstrapServer {
  private readonly server: Server<undefined>;
  private requestNo = 0;

  /** `tls`: the PEM pair of --tls-cert/--tls-key, so the port speaks https while it bootstraps too. */
  constructor(host: string, port: number, version: string, progress: () => BootstrapProgress, tls: { cert: string; key: string } | null = null) {
    this.server = Bun.serve({
      hostname: host,
      port,
      reusePort: false,
      ...(tls === null ? {} : { tls: { cert: tls.cert, key: tls.key } }),
      fetch: (req) => {
        const p = progress();
        const reason = reasonOf(p);
        const headers = { 'content-type': 'application/json', 'retry-after': RETRY_AFTER_S };
        if (new URL(req.url).pathname === '/health') {
          const body = {
            status: 'bootstrapping',
            version,
            reason,
            bootstrap: { state: p.state, waited_s: p.waitedS, timeout_s: p.timeoutS, bytes: p.bytes, total_bytes: p.totalBytes, percent: p.totalBytes === null || p.totalBytes === 0 ? null : Math.floor((p.bytes / p.totalBytes) * 100), last_error: p.lastError },
          };
          return new Response(JSON.stringify(body), { status: 503, headers });
        }
        return new Response(JSON.stringify({ status: 503, error: `this edge is bootstrapping: ${reason}; it serves once it holds the ingest node's history`, request_id: `bootstrap-${++this.requestNo}` }), { status: 503, headers });
      },
    });
  }

  get port(): number {
    return this.server.port!;
  }

  async stop(): Promise<void> {
    await this.server.stop(true);
  }
}

function reasonOf(p: BootstrapProgress): string {
  if (p.state === 'downloading') return `downloading the ingest node's store snapshot (${p.bytes} of ${p.totalBytes ?? '?'} bytes)`;
  if (p.state === 'waiting') return `waiting for the ingest node's first store snapshot (${p.waitedS} s of ${p.timeoutS} s)`;
  return `connecting to NATS to fetch the ingest node's store snapshot (${p.waitedS} s of ${p.timeoutS} s)`;
}
