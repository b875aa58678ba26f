// The client's errors: MdsError for a refused REST call or stream connection (the server's error
// body: status, message, request id, and Retry-After on 429), StreamRequestError for a refused
// subscribe or unsubscribe frame (the server's error frame).

/** A REST answer other than 200 (or a refused stream connection), with the server's error body. */
export class MdsError extends Error {
  override readonly name = 'MdsError';
  /** The HTTP status: 400, 401, 403, 404, 429, 503, ... */
  readonly status: number;
  /** The body's `request_id` (or the `X-Request-Id` header); quote it when asking the operator. */
  readonly requestId: string | null;
  /** Seconds to wait before trying again, from `Retry-After` (429); null when not sent. */
  readonly retryAfterSec: number | null;
  /** The URL requested, without the key. */
  readonly url: string;
  /** The parsed body as sent (the error body, or null when it was not JSON). */
  readonly body: unknown;

  constructor(init: { status: number; message: string; requestId: string | null; retryAfterSec: number | null; url: string; body: unknown }) {
    super(init.message);
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryAfterSec = init.retryAfterSec;
    this.url = init.url;
    this.body = init.body;
  }
}

/** The server's codes in stream error frames. */
export type StreamErrorCode =
  | 'bad_json'
  | 'bad_frame'
  | 'unknown_action'
  | 'unknown_channel'
  | 'unknown_symbol'
  | 'invalid_symbol'
  | 'forbidden'
  | 'too_many_subscriptions'
  | 'rate_limited'
  | 'unauthorized';

/** A subscribe or unsubscribe the server refused: nothing changed. */
export class StreamRequestError extends Error {
  override readonly name = 'StreamRequestError';
  readonly code: StreamErrorCode;

  constructor(code: StreamErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** The stream was closed (by `close()` or for good) before the request was answered. */
export class StreamClosedError extends Error {
  override readonly name = 'StreamClosedError';
}
