// The stream's frame schemas as a contract for tests: the test clients hold every server frame they
// receive to its schema (by `type`), so every stream test is also a contract test of the frames.
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { SERVER_FRAMES, StreamClientFrameSchema } from '../../src/domain/stream-frames.ts';

const compiled = new Map<TSchema, TypeCheck<TSchema>>();
const checkerOf = (schema: TSchema) => compiled.get(schema) ?? compiled.set(schema, TypeCompiler.Compile(schema)).get(schema)!;

function errorsOf(schema: TSchema, value: unknown): string[] {
  return [...checkerOf(schema).Errors(value)].slice(0, 6).map((e) => `${e.path || '/'}: ${e.message} (got ${JSON.stringify(e.value)?.slice(0, 80)})`);
}

/** What is wrong with a server frame (empty: it fits one of the schemas for its `type`). */
export function serverFrameMismatches(frame: unknown): string[] {
  const type = typeof frame === 'object' && frame !== null ? (frame as { type?: unknown }).type : undefined;
  const schemas: readonly TSchema[] | undefined = typeof type === 'string' && Object.hasOwn(SERVER_FRAMES, type) ? SERVER_FRAMES[type as keyof typeof SERVER_FRAMES] : undefined;
  if (!schemas) return [`/type: not a server frame type (got ${JSON.stringify(type)})`];
  if (schemas.some((s) => checkerOf(s).Check(frame))) return [];
  // The errors of the closest shape: the one with the fewest.
  return schemas.map((s) => errorsOf(s, frame)).sort((a, b) => a.length - b.length)[0]!;
}

/** What is wrong with a client frame (empty: a subscribe or unsubscribe frame as documented). */
export function clientFrameMismatches(frame: unknown): string[] {
  return errorsOf(StreamClientFrameSchema, frame);
}

/** Every server frame a test client received that did not fit, kept until the client is disposed. */
export class FrameViolations {
  readonly found: string[] = [];

  /** Checks one decoded frame; a mismatch is logged at once and remembered. */
  check(frame: unknown, format: 'json' | 'msgpack'): void {
    const problems = serverFrameMismatches(frame);
    if (problems.length === 0) return;
    const line = `${format} server frame breaks the frame schemas (src/domain/stream-frames.ts): ${JSON.stringify(frame).slice(0, 300)}\n  ${problems.join('\n  ')}`;
    console.error(line);
    this.found.push(line);
  }

  /** Throws when any frame did not fit. */
  assertNone(): void {
    if (this.found.length > 0) throw new Error(`${this.found.length} server frame(s) broke the frame schemas:\n${this.found.join('\n')}`);
  }
}
