// Reads a fundamentals input file, CSV (a header row naming the columns) or NDJSON (one JSON
// object per line), streaming it and turning each row into a raw record or a row error with its
// line number. Problems with the file as a whole (an unknown or repeated column, a missing
// required column, an unclosed quote) stop the import before anything is written.
import { INPUT_COLUMN_NAMES, isInputColumn, parseFundamentalsInput, type RawFundamentals } from '../../domain/fundamentals-input.ts';
import { CsvReader, type CsvRecord } from './csv.ts';

export type FileFormat = 'csv' | 'ndjson';

export type RowResult = { line: number; record: RawFundamentals } | { line: number; error: string };

/** A problem with the whole file: nothing from it is imported. */
export class InputFileError extends Error {}

/** The format a file name implies, or null. */
export function formatOfPath(path: string): FileFormat | null {
  const lower = path.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.ndjson') || lower.endsWith('.jsonl')) return 'ndjson';
  return null;
}

function checkHeader(record: CsvRecord): string[] {
  const names = record.cells.map((c) => c.trim().toLowerCase());
  const seen = new Set<string>();
  for (const name of names) {
    if (!isInputColumn(name)) throw new InputFileError(`line ${record.line}: unknown column ${JSON.stringify(name.slice(0, 40))}; the columns are ${INPUT_COLUMN_NAMES.join(', ')}`);
    if (seen.has(name)) throw new InputFileError(`line ${record.line}: column ${name} appears twice`);
    seen.add(name);
  }
  for (const required of ['symbol', 'as_of']) if (!seen.has(required)) throw new InputFileError(`line ${record.line}: the header has no ${required} column`);
  return names;
}

function csvRow(header: string[], record: CsvRecord, latestAsOf: string): RowResult {
  if (record.cells.length !== header.length) return { line: record.line, error: `has ${record.cells.length} cells, the header has ${header.length}` };
  const fields: Record<string, string> = {};
  header.forEach((name, i) => (fields[name] = record.cells[i]!));
  return fromFields(record.line, fields, latestAsOf);
}

function ndjsonRow(line: number, text: string, latestAsOf: string): RowResult | null {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { line, error: 'is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { line, error: 'is not a JSON object' };
  return fromFields(line, value as Record<string, unknown>, latestAsOf);
}

function fromFields(line: number, fields: Record<string, unknown>, latestAsOf: string): RowResult {
  const parsed = parseFundamentalsInput(fields, latestAsOf);
  return parsed.ok ? { line, record: parsed.record } : { line, error: parsed.error };
}

/**
 * Streams the rows of a file; a row dated after `latestAsOf` (YYYY-MM-DD) is a bad row.
 * `onProgress` is called with the bytes read so far after each chunk.
 */
export async function* readFundamentalsFile(path: string, format: FileFormat, latestAsOf: string, onProgress?: (bytesRead: number) => void): AsyncGenerator<RowResult> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  let bytesRead = 0;
  let first = true;
  const csv = new CsvReader();
  let header: string[] | null = null;
  let pendingText = '';
  let line = 1;
  const rowsOfCsv = function* (records: CsvRecord[]): Generator<RowResult> {
    for (const record of records) {
      if (header === null) header = checkHeader(record);
      else yield csvRow(header, record, latestAsOf);
    }
  };
  const rowsOfNdjson = function* (text: string, final: boolean): Generator<RowResult> {
    const buffer = pendingText + text;
    let from = 0;
    let at: number;
    while ((at = buffer.indexOf('\n', from)) >= 0) {
      const row = ndjsonRow(line, buffer.slice(from, at), latestAsOf);
      from = at + 1;
      line++;
      if (row) yield row;
    }
    pendingText = buffer.slice(from);
    if (final && pendingText.length > 0) {
      const row = ndjsonRow(line, pendingText, latestAsOf);
      pendingText = '';
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
  if (format === 'csv') {
    let records: CsvRecord[];
    try {
      records = [...csv.push(rest), ...csv.end()];
    } catch (err) {
      throw new InputFileError((err as Error).message);
    }
    yield* rowsOfCsv(records);
    if (header === null) throw new InputFileError('the file is empty: a CSV import needs a header row naming its columns');
  } else {
    yield* rowsOfNdjson(rest, true);
  }
}
