// The WebSocket close codes a stream connection can end with, and why: the stream closes with these
// constants, and the AsyncAPI document and docs/stream.md list the same table.

export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_TOO_BIG = 1009;
export const CLOSE_KEY_INVALID = 4001;
export const CLOSE_SLOW_CONSUMER = 4008;
export const CLOSE_FLOOD = 4029;

export interface StreamCloseCode {
  code: number;
  /** The close frame's reason, or how it is made. */
  reason: string;
  when: string;
  /** Who closes: the stream's own code, or the WebSocket runtime under a limit the stream sets. */
  by: 'server' | 'runtime' | 'none';
}

export const STREAM_CLOSE_CODES: readonly StreamCloseCode[] = [
  { code: CLOSE_GOING_AWAY, reason: 'server shutting down', when: 'the server stops; reconnect and resume with `since`', by: 'server' },
  { code: CLOSE_TOO_BIG, reason: "the runtime's", when: 'a client frame over 64 KiB', by: 'runtime' },
  {
    code: CLOSE_KEY_INVALID,
    reason: '`API key revoked`, `plan not offered by this server`, `invalid API key`, or the error message',
    when: "the key was revoked or its plan removed while connected; or a browser's handshake (one with `Origin`) with a missing, wrong or revoked key, right after an `unauthorized` error frame",
    by: 'server',
  },
  {
    code: CLOSE_SLOW_CONSUMER,
    reason: '`slow consumer: more than N bytes unsent`',
    when: 'more than `slow_consumer_bytes` unsent: nothing more is sent, and the close follows once the client has read what was queued (or after 120 s)',
    by: 'server',
  },
  {
    code: CLOSE_FLOOD,
    reason: '`too many frames`, `too many frames for this key`, or `rate limit exceeded`',
    when: "more than `max_frames_per_10s` client frames in 10 s on the connection; or more than the plan's `stream_frames_per_10s` from the key over all its connections (its new connections then get 429 until the 10 s end); or a browser's keyless handshake past the per-address keyless limit; after a `rate_limited` error frame",
    by: 'server',
  },
  {
    code: 1006,
    reason: 'none (no close frame)',
    when: 'what a client reports when the connection ends without a close frame: a peer silent for 60 s (not even a pong) is dropped, and a browser sees a refused upgrade (401/403/429/400) this way',
    by: 'none',
  },
];
