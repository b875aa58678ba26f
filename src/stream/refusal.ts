// A refused upgrade, answered like a REST error: the JSON error body with its request id in
// X-Request-Id, and for refusals counted by a limiter or budget its X-RateLimit-* headers (and
// Retry-After on 429); a spent budget's refusal may be held back before it goes out.
import { randomBytes } from 'node:crypto';

const bootId = randomBytes(4).toString('hex');
let counter = 0;

export interface RateState {
  limit: number;
  remaining: number;
  resetMs: number;
}

export function refusal(status: number, message: string, rate?: RateState, nowMs?: number): Response {
  const requestId = `ws-${bootId}-${(++counter).toString(36)}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
  if (rate) {
    headers['x-ratelimit-limit'] = String(rate.limit);
    headers['x-ratelimit-remaining'] = String(rate.remaining);
    headers['x-ratelimit-reset'] = String(Math.ceil(rate.resetMs / 1000));
    if (status === 429 && nowMs !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil((rate.resetMs - nowMs) / 1000)));
  }
  return new Response(JSON.stringify({ status, error: message, request_id: requestId }), { status, headers });
}

/**
 * Refusals for a spent budget answered after `delayMs`: a client that retries at once, whatever it
 * is told, then makes one attempt per delay and connection instead of as many as the server can
 * refuse. Callers bound how many are held at once; answerAll (the server stopping) sends them now.
 */
export class HeldRefusals {
  private readonly held = new Set<() => void>();

  constructor(private readonly delayMs: number) {}

  /** The response, or a promise of it after the delay; `done` runs when it goes out. */
  hold(response: Response, done: () => void): Response | Promise<Response> {
    if (this.delayMs <= 0) {
      done();
      return response;
    }
    return new Promise((resolve) => {
      const answer = () => {
        clearTimeout(timer);
        this.held.delete(answer);
        done();
        resolve(response);
      };
      const timer = setTimeout(answer, this.delayMs);
      this.held.add(answer);
    });
  }

  answerAll(): void {
    for (const answer of [...this.held]) answer();
  }
}
