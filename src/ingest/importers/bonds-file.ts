// Reads a bond-yield file, streaming it, in one of two CSV layouts told apart by the header:
// the US Treasury's daily par yield curve (`Date` in MM/DD/YYYY, then one column per tenor such as
// `1 Mo` ... `30 Yr`; columns for tenors we do not cover, such as `1.5 Month`, are ignored with a
// note) and our simple layout for any covered country (`date,country,tenor,yield[,source]`). Each
// row becomes its observations or an error with its line number; a problem with the file as a
// whole (no recognizable header, an unclosed quote) stops the import before anything is written.
import { BOND_TENORS, observationProblem, type BondObservation } from '../../domain/bonds.ts';
import { CsvReader, type CsvRecord } from './csv.ts';
import { InputFileError } from './fundamentals-file.ts';

export { InputFileError };

export type BondsLayout = 'treasury' | 'simple';

export const TREASURY_SOURCE = 'US Treasury daily par yield curve';
export const SIMPLE_COLUMNS = ['date', 'country', 'tenor', 'yield', 'source'] as const;

export interface BondsFileInfo {
  layout: BondsLayout;
  /** Header cells of columns that are not read (Treasury layout: tenors we do not cover). */
  ignoredColumns: string[];
}

export interface BondsReadOptions {
  /** Source for rows that name none (Treasury layout: always; simple layout: rows without one). */
  source?: string;
  /** Dates after this (`YYYY-MM-DD`) are refused: an official observation is never in the future. */
  latestDate: string;
  onHeader?: (info: BondsFileInfo) => void;
  onProgress?: (bytesRead: number) => void;
}

export type BondsRow = { line: number; observations: BondObservation[] } | { line: number; error: string };

const US_TENORS = new Set<string>(BOND_TENORS.US);
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A Treasury column header (`1 Mo`, `2 Months`, `10 Yr`, `1.5 Month`, `6 Wk`) → our tenor, or null. */
export function treasuryTenor(header: string): string | null {
  const m = /^(\d+)\s*(mo|mos|month|months|yr|yrs|year|years)$/i.exec(header.trim());
  if (!m) return null;
  const tenor = `${Number(m[1])}${m[2]!.toLowerCase().startsWith('m') ? 'M' : 'Y'}`;
  return US_TENORS.has(tenor) ? tenor : null;
}

function isoDateOf(raw: string): string | null {
  const text = raw.trim();
  let date: string;
  const us = US_DATE.exec(text);
  if (us) date = `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}`;
  else if (ISO_DATE.test(text)) date = text;
  else return null;
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date && date >= '1970-01-01' ? date : null;
}

function shown(text: string): string {
  return JSON.stringify(text.length > 30 ? `${text.slice(0, 30)}…` : text);
}

interface Layout {
  info: BondsFileInfo;
  row(record: CsvRecord): BondsRow;
}

function checkDate(raw: string, latestDate: string): string | { error: string } {
  const date = isoDateOf(raw);
  if (date === null) return { error: `date ${shown(raw)} is not a date (MM/DD/YYYY or YYYY-MM-DD)` };
  if (date > latestDate) return { error: `date ${date} is in the future` };
  return date;
}

function treasuryLayout(header: CsvRecord, opts: BondsReadOptions): Layout {
  const source = opts.source ?? TREASURY_SOURCE;
  const columns: (string | null)[] = header.cells.map((cell, i) => (i === 0 ? null : treasuryTenor(cell)));
  const ignoredColumns = header.cells.filter((cell, i) => i > 0 && columns[i] === null).map((c) => c.trim());
  const seen = new Set<string>();
  for (const tenor of columns) {
    if (tenor === null) continue;
    if (seen.has(tenor)) throw new InputFileError(`line ${header.line}: two columns are the ${tenor} tenor`);
    seen.add(tenor);
  }
  if (seen.size === 0) throw new InputFileError(`line ${header.line}: no tenor column: the Treasury layout has Date, then columns such as 1 Mo, 3 Mo, 1 Yr, 10 Yr, 30 Yr`);
  return {
    info: { layout: 'treasury', ignoredColumns },
    row(record) {
      const { line, cells } = record;
      if (cells.length > header.cells.length) return { line, error: `has ${cells.length} cells, the header has ${header.cells.length}` };
      const date = checkDate(cells[0]!, opts.latestDate);
      if (typeof date !== 'string') return { line, error: date.error };
      const observations: BondObservation[] = [];
      for (let i = 1; i < cells.length; i++) {
        const tenor = columns[i];
        const text = cells[i]!.trim();
        // An empty or N/A cell: the tenor was not published that day (the 4-month bill before 2022).
        if (tenor === null || tenor === undefined || text === '' || text.toUpperCase() === 'N/A') continue;
        if (!NUMBER.test(text)) return { line, error: `${header.cells[i]!.trim()} value ${shown(text)} is not a number` };
        const o: BondObservation = { symbol: `US:${tenor}`, date, yieldPct: Number(text), source };
        const problem = observationProblem(o);
        if (problem) return { line, error: `${header.cells[i]!.trim()}: ${problem}` };
        observations.push(o);
      }
      if (observations.length === 0) return { line, error: 'has no yield in any tenor column' };
      return { line, observations };
    },
  };
}

function simpleLayout(header: CsvRecord, names: string[], opts: BondsReadOptions): Layout {
  const seen = new Set<string>();
  for (const name of names) {
    if (!(SIMPLE_COLUMNS as readonly string[]).includes(name)) throw new InputFileError(`line ${header.line}: unknown column ${shown(name)}; the columns are ${SIMPLE_COLUMNS.join(', ')}`);
    if (seen.has(name)) throw new InputFileError(`line ${header.line}: column ${name} appears twice`);
    seen.add(name);
  }
  for (const required of ['date', 'country', 'tenor', 'yield']) if (!seen.has(required)) throw new InputFileError(`line ${header.line}: the header has no ${required} column`);
  if (!seen.has('source') && opts.source === undefined) throw new InputFileError(`line ${header.line}: the header has no source column: add one, or name the source of every row with --source`);
  const at = (name: string) => names.indexOf(name);
  const [iDate, iCountry, iTenor, iYield, iSource] = [at('date'), at('country'), at('tenor'), at('yield'), at('source')];
  return {
    info: { layout: 'simple', ignoredColumns: [] },
    row(record) {
      const { line, cells } = record;
      if (cells.length !== names.length) return { line, error: `has ${cells.length} cells, the header has ${names.length}` };
      const date = checkDate(cells[iDate]!, opts.latestDate);
      if (typeof date !== 'string') return { line, error: date.error };
      const country = cells[iCountry]!.trim().toUpperCase();
      const tenor = cells[iTenor]!.trim().toUpperCase();
      const text = cells[iYield]!.trim();
      if (!NUMBER.test(text)) return { line, error: `yield ${shown(text)} is not a number` };
      const source = (iSource >= 0 ? cells[iSource]!.trim() : '') || (opts.source ?? '');
      const o: BondObservation = { symbol: `${country}:${tenor}`, date, yieldPct: Number(text), source };
      const problem = observationProblem(o);
      return problem ? { line, error: problem } : { line, observations: [o] };
    },
  };
}

function layoutOf(header: CsvRecord, opts: BondsReadOptions): Layout {
  const names = header.cells.map((c) => c.trim().toLowerCase());
  if (names.includes('country')) return simpleLayout(header, names, opts);
  if (names[0] === 'date') return treasuryLayout(header, opts);
  throw new InputFileError(
    `line ${header.line}: unrecognized header: expected the US Treasury daily par yield curve layout (Date, 1 Mo, 2 Mo, ..., 30 Yr) or ${SIMPLE_COLUMNS.join(',')}`,
  );
}

/** Streams the rows of a file; `onProgress` gets the bytes read so far after each chunk. */
export async function* readBondsFile(path: string, opts: BondsReadOptions): AsyncGenerator<BondsRow> {
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const csv = new CsvReader();
  let layout: Layout | null = null;
  let bytesRead = 0;
  let first = true;
  const rowsOf = function* (records: CsvRecord[]): Generator<BondsRow> {
    for (const record of records) {
      if (layout === null) {
        layout = layoutOf(record, opts);
        opts.onHeader?.(layout.info);
      } else yield layout.row(record);
    }
  };
  for await (const chunk of Bun.file(path).stream()) {
    bytesRead += chunk.byteLength;
    let text = decoder.decode(chunk, { stream: true });
    if (first) {
      text = text.replace(/^\uFEFF/, '');
      first = false;
    }
    yield* rowsOf(csv.push(text));
    opts.onProgress?.(bytesRead);
  }
  let records: CsvRecord[];
  try {
    records = [...csv.push(decoder.decode()), ...csv.end()];
  } catch (err) {
    throw new InputFileError((err as Error).message);
  }
  yield* rowsOf(records);
  if (layout === null) throw new InputFileError('the file is empty: a bonds import needs a header row');
}
