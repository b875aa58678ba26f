// Reads a splits or dividends file: CSV (a header row naming the fields), NDJSON (one JSON object
// per line) or JSON (an array of objects, or a saved Massive reference answer `{results: [...]}`),
// in the field names of Massive's reference API. Each row becomes an action or an error with its
// line number; a problem with the file as a whole (an unknown or repeated column, a missing
// required one, an unclosed quote, JSON that does not parse) stops the import before anything is
// written.
import { fieldsOf, IGNORED_FIELDS, parseDividendInput, parseSplitInput, REQUIRED_FIELDS, type CorporateActionKind, type Dividend, type Split } from '../../domain/corporate-actions.ts';
import { CsvReader, type CsvRecord } from './csv.ts';
import { InputFileError } from './fundamentals-file.ts';

export type ActionsFormat = 'csv' | 'ndjson' | 'json';

export type ActionRow = { line: number; split: Split } | { line: number; dividend: Dividend } | { line: number; error: string };

/** The format a file name implies, or null. */
export function actionsFormatOfPath(path: string): ActionsFormat | null {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  if (lower.endsWith('.json')) return 'json';
  return null;
}

function known(kind: CorporateActionKind): Set<string> {
  return new Set([...fieldsOf(kind), ...IGNORED_FIELDS]);
}

function checkHeader(kind: CorporateActionKind, record: CsvRecord): string[] {
  const names = record.cells.map((c) => c.trim().toLowerCase());
  const allowed = known(kind);
  const seen = new Set<string>();
  for (const name of names) {
    if (!allowed.has(name)) throw new InputFileError(`line ${record.line}: unknown column ${JSON.stringify(name.slice(0, 40))}; the ${kind} columns are ${fieldsOf(kind).join(', ')}`);
    if (seen.has(name)) throw new InputFileError(`line ${record.line}: column ${name} appears twice`);
    seen.add(name);
  }
  for (const required of REQUIRED_FIELDS[kind]) if (!seen.has(required)) throw new InputFileError(`line ${record.line}: the header has no ${required} column (${kind} need ${REQUIRED_FIELDS[kind].join(', ')})`);
  return names;
}

/** One row's fields as an action of `kind`, or the reason it is not one. */
export function actionRow(kind: CorporateActionKind, line: number, fields: Record<string, unknown>): ActionRow {
  const allowed = known(kind);
  const unknown = Object.keys(fields).find((k) => !allowed.has(k));
  if (unknown !== undefined) return { line, error: `unknown field ${JSON.stringify(unknown.slice(0, 40))}; the ${kind} fields are ${fieldsOf(kind).join(', ')}` };
  if (kind === 'splits') {
    const p = parseSplitInput(fields);
    return p.ok ? { line, split: p.value } : { line, error: p.error };
  }
  const p = parseDividendInput(fields);
  return p.ok ? { line, dividend: p.value } : { line, error: p.error };
}

function objectRow(kind: CorporateActionKind, line: number, value: unknown): ActionRow {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { line, error: 'is not a JSON object' };
  return actionRow(kind, line, value as Record<string, unknown>);
}

/** Streams the rows of a CSV or NDJSON file; JSON is read whole. `onProgress` gets the bytes read so far. */
export async function* readActionsFile(path: string, kind: CorporateActionKind, format: ActionsFormat, onProgress?: (bytesRead: number) => void): AsyncGenerator<ActionRow> {
  if (format === 'json') {
    const text = (await Bun.file(path).text()).replace(/^\uFEFF/, '');
    onProgress?.(Buffer.byteLength(text));
    yield* jsonRows(kind, text);
    return;
  }
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const csv = new CsvReader();
  let header: string[] | null = null;
  let pending = '';
  let line = 1;
  let bytesRead = 0;
  let first = true;
  const rowsOfCsv = function* (records: CsvRecord[]): Generator<ActionRow> {
    for (const record of records) {
      if (header === null) {
        header = checkHeader(kind, record);
        continue;
      }
      if (record.cells.length === 1 && record.cells[0]!.trim() === '') continue;
      if (record.cells.length !== header.length) {
        yield { line: record.line, error: `has ${record.cells.length} cells, the header has ${header.length}` };
        continue;
      }
      const fields: Record<string, string> = {};
      header.forEach((name, i) => {
        if (!(IGNORED_FIELDS as readonly string[]).includes(name)) fields[name] = record.cells[i]!;
      });
      yield actionRow(kind, record.line, fields);
    }
  };
  const rowsOfNdjson = function* (chunk: string, final: boolean): Generator<ActionRow> {
    const buffer = pending + chunk;
    let from = 0;
    let at: number;
    const one = (text: string, n: number): ActionRow | null => {
      if (text.trim() === '') return null;
      try {
        return objectRow(kind, n, JSON.parse(text));
      } catch {
        return { line: n, error: 'is not valid JSON' };
      }
    };
    while ((at = buffer.indexOf('\n', from)) >= 0) {
      const row = one(buffer.slice(from, at), line++);
      from = at + 1;
      if (row) yield row;
    }
    pending = buffer.slice(from);
    if (final && pending.length > 0) {
      const row = one(pending, line);
      pending = '';
      if (row) yield row;
    }
  };
  for await (const chunk of Bun.file(path).stream()) {
    bytesRead += chunk.byteLength;
    let text = decoder.decode(chunk, { stream: true });
    if (first) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    if (format === 'csv') yield* rowsOfCsv(csv.push(text));
    else yield* rowsOfNdjson(text, false);
    onProgress?.(bytesRead);
  }
  const rest = decoder.decode();
  if (format === 'ndjson') {
    yield* rowsOfNdjson(rest, true);
    return;
  }
  let records: CsvRecord[];
  try {
    records = [...csv.push(rest), ...csv.end()];
  } catch (err) {
    throw new InputFileError((err as Error).message);
  }
  yield* rowsOfCsv(records);
  if (header === null) throw new InputFileError('the file is empty: a CSV import needs a header row naming its columns');
}

/** The rows of a JSON file: an array of objects, or an object whose `results` is one; each named by the line its object starts on. */
function* jsonRows(kind: CorporateActionKind, text: string): Generator<ActionRow> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputFileError(`is not valid JSON (${(err as Error).message})`);
  }
  const items = Array.isArray(value) ? value : typeof value === 'object' && value !== null && Array.isArray((value as { results?: unknown }).results) ? ((value as { results: unknown[] }).results) : null;
  if (items === null) throw new InputFileError('a JSON file holds an array of objects, or an object with a results array (a saved Massive reference answer)');
  const lines = itemLines(text, Array.isArray(value) ? null : 'results');
  for (let i = 0; i < items.length; i++) yield objectRow(kind, lines[i] ?? 1, items[i]);
}

/**
 * The line each element of the array starts on: the top-level array, or the array under the
 * top-level key `key`. A scan of the text that skips strings and tracks depth.
 */
function itemLines(text: string, key: string | null): number[] {
  const out: number[] = [];
  let line = 1;
  let depth = 0;
  // The depth the wanted array's elements sit at, once its `[` is found.
  let arrayDepth = key === null ? 1 : -1;
  let lastString = '';
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\n') {
      line++;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') continue;
    if (ch === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      lastString = text.slice(i + 1, j);
      if (expectElement && depth === arrayDepth) {
        out.push(line);
        expectElement = false;
      }
      i = j;
      continue;
    }
    if (expectElement && depth === arrayDepth && ch !== ']') {
      out.push(line);
      expectElement = false;
    }
    if (ch === '[' || ch === '{') {
      depth++;
      if (ch === '[' && arrayDepth === -1 && depth === 2 && lastString === key) arrayDepth = 2;
      if (ch === '[' && depth === arrayDepth) expectElement = true;
    } else if (ch === ']' || ch === '}') {
      if (depth === arrayDepth && ch === ']') expectElement = false;
      depth--;
    } else if (ch === ',' && depth === arrayDepth) expectElement = true;
  }
  return out;
}
