export { MdsClient, type ClientOptions, type OperationAt, type RoutePath } from './rest.ts';
export { buildUrl, type FetchLike, type ResponseLike } from './http.ts';
export { MdsStream, CLOSE_SILENT, type StreamOptions, type SubscriptionRequest, type WebSocketConstructor } from './stream.ts';
export { MdsError, StreamClosedError, StreamRequestError, type StreamErrorCode } from './errors.ts';
export { backoffDelayMs, type BackoffOptions } from './backoff.ts';
export type * from './stream-types.ts';
export * from './generated.ts';
