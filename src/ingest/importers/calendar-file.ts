// Reads an economic-calendar file, streaming it: CSV (a header row naming the columns) or NDJSON
// (one JSON object per line). Each row becomes an event or an error with its line number; a problem
// with the file as a whole (an unknown or repeated column, a missing required column, an unclosed
// quote) stops the import before anything is written.
import { CALENDAR_COLUMNS, isCalendarColumn, parseEventInput, type EconomicEvent } from '../../domain/economic-calendar.ts';
import { CsvReader, type CsvRecord } from './csv.ts';
import { InputFileError, type FileFormat } from './fundamentals-file.ts';

export type CalendarRow = { line: number; event: EconomicEvent } | { line: number; error: string };

function checkHeader(record: CsvRecord): string[] {
  const names = record.cells.map((c) => c.trim().toLowerCase());
  const seen = new Set<string>();
  for (const name of names) {
    if (!isCalendarColumn(name)) throw new InputFileError(`line ${record.line}: unknown column ${JSON.stringify(name.slice(0, 40))}; the columns are ${CALENDAR_COLUMNS.join(', ')}`);
    if (seen.has(name)) throw new InputFileError(`line ${record.line}: column ${name} appears twice`);
    seen.add(name);
  }
  for (const required of ['id', 'country', 'event', 'category', 'importance', 'scheduled_at']) {
    if (!seen.has(required)) throw new InputFileError(`line ${record.line}: the header has no ${required} column`);
  }
  return names;
}

function rowOf(line: number, fields: Record<string, unknown>): CalendarRow {
  const parsed = parseEventInput(fields);
  return parsed.ok ? { line, event: parsed.event } : { line, error: parsed.error };
}

function csvRow(header: string[], record: CsvRecord): CalendarRow {
  if (record.cells.length !== header.length) return { line: record.line, error: `has ${record.cells.length} cells, the header has ${header.length}` };
  const fields: Record<string, string> = {};
  header.forEach((name, i) => (fields[name] = record.cells[i]!));
  return rowOf(record.line, fields);
}

function ndjsonRow(line: number, text: string): CalendarRow | null {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { line, error: 'is not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { line, error: 'is not a JSON object' };
  return rowOf(line, value as Record<string, unknown>);
}

/** Streams the rows of a file; `onProgress` gets the bytes read so far after each chunk. */
export async function* readCalendarFile(path: string, format: FileFormat, onProgress?: (bytesRead: number) => void): AsyncGenerator<CalendarRow> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const csv = new CsvReader();
  let header: string[] | null = null;
  let pending = '';
  let line = 1;
  let bytesRead = 0;
  let first = true;
  const rowsOfCsv = function* (records: CsvRecord[]): Generator<CalendarRow> {
    for (const record of records) {
      if (header === null) header = checkHeader(record);
      else yield csvRow(header, record);
    }
  };
  const rowsOfNdjson = function* (text: string, final: boolean): Generator<CalendarRow> {
    const buffer = pending + text;
    let from = 0;
    let at: number;
    while ((at = buffer.indexOf('\n', from)) >= 0) {
      const row = ndjsonRow(line++, buffer.slice(from, at));
      from = at + 1;
      if (row) yield row;
    }
    pending = buffer.slice(from);
    if (final && pending.length > 0) {
      const row = ndjsonRow(line, pending);
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
