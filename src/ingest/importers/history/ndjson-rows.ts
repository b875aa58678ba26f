// The NDJSON reader of history files: one JSON object per line, keys matched to targets like a
// CSV header (on the first object), values written through the same value rules as CSV cells.
import { InputFileError } from '../fundamentals-file.ts';
import { CODE_SKIP, type RowBuilder } from './row-builder.ts';
import { writeValue, type ValueContext } from './row-values.ts';

/** Matches the first object's keys to targets; returns the keys to read and what each feeds. */
export type KeyResolver = (keys: string[]) => { keys: string[]; codes: Uint8Array };

export class NdjsonRowParser {
  private readonly decoder = new TextDecoder('utf-8');
  private pending = '';
  private line = 1;
  private keys: string[] | null = null;
  private codes: Uint8Array = new Uint8Array(0);
  private first = true;

  constructor(
    private readonly ctx: ValueContext,
    private readonly resolve: KeyResolver,
  ) {}

  private get builder(): RowBuilder {
    return this.ctx.builder;
  }

  push(chunk: Uint8Array): void {
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.first = false;
    }
    const buffer = this.pending + text;
    let from = 0;
    let at: number;
    while ((at = buffer.indexOf('\n', from)) >= 0) {
      this.row(buffer.slice(from, at));
      from = at + 1;
    }
    this.pending = buffer.slice(from);
    if (this.pending.length > 16 << 20) throw new InputFileError(`line ${this.line}: a line longer than 16 MB; is this an NDJSON file?`);
  }

  finish(): void {
    const rest = this.pending + this.decoder.decode();
    this.pending = '';
    if (rest.length > 0) this.row(rest);
  }

  private row(raw: string): void {
    const line = this.line++;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') return;
    const b = this.builder;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      b.problem(line, 'is not valid JSON');
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      b.problem(line, 'is not a JSON object');
      return;
    }
    const record = value as Record<string, unknown>;
    if (this.keys === null) {
      const resolved = this.resolve(Object.keys(record));
      this.keys = resolved.keys;
      this.codes = resolved.codes;
    }
    if (b.shape.ticks) b.beginTickRow();
    let error: string | null = null;
    const keys = this.keys;
    for (let i = 0; i < keys.length && error === null; i++) {
      const code = this.codes[i]!;
      if (code !== CODE_SKIP) error = writeValue(this.ctx, code, keys[i]!, record[keys[i]!]);
    }
    if (error === null) error = b.commit(line);
    if (error !== null) b.problem(line, error);
  }
}
