// The Parquet reader of history files: columns matched to targets like a CSV header, read one row
// group at a time (only the columns that feed a target) so memory stays bounded by the largest
// row group; pages compressed with snappy, gzip, zstd, brotli or lz4 are read.
import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, parquetSchema, type AsyncBuffer, type ColumnData, type FileMetaData } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { DAY_MS } from '../../../domain/timeframes.ts';
import { InputFileError } from '../fundamentals-file.ts';
import { CODE_SKIP, type RowBuilder } from './row-builder.ts';
import { writeValue, type ValueContext } from './row-values.ts';

export interface ParquetSource {
  file: AsyncBuffer;
  metadata: FileMetaData;
  /** Top-level column names. */
  columns: string[];
}

export async function openParquet(path: string): Promise<ParquetSource> {
  try {
    const file = await asyncBufferFromFile(path);
    const metadata = await parquetMetadataAsync(file);
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    return { file, metadata, columns };
  } catch (err) {
    throw new InputFileError(`${path}: not a readable Parquet file (${(err as Error).message})`);
  }
}

/** A Parquet DATE is a calendar day: as text it is read in the reader's zone like a CSV date. */
function dayText(days: number): string {
  const ms = days * DAY_MS;
  const d = new Date(ms);
  return d.toISOString().slice(0, 10);
}

/**
 * Reads the row groups in order into the builder, yielding after each one the rows read so far
 * (the caller takes the closed batches then). Row numbers are 1-based.
 */
export async function* readParquetGroups(source: ParquetSource, ctx: ValueContext, selected: { columns: string[]; codes: Uint8Array }): AsyncGenerator<number> {
  const b: RowBuilder = ctx.builder;
  const indexOf = new Map(selected.columns.map((name, i) => [name, i]));
  let groupStart = 0;
  for (const group of source.metadata.row_groups) {
    const groupRows = Number(group.num_rows);
    const groupEnd = groupStart + groupRows;
    const data = selected.columns.map(() => new Array<unknown>(groupRows));
    await parquetRead({
      file: source.file,
      metadata: source.metadata,
      columns: selected.columns,
      rowStart: groupStart,
      rowEnd: groupEnd,
      compressors,
      parsers: { dateFromDays: dayText },
      onChunk: (chunk: ColumnData) => {
        const column = data[indexOf.get(chunk.columnName)!]!;
        const values = chunk.columnData;
        const from = Math.max(chunk.rowStart, groupStart);
        const to = Math.min(chunk.rowEnd, groupEnd);
        for (let r = from; r < to; r++) column[r - groupStart] = values[r - chunk.rowStart];
      },
    });
    for (let r = 0; r < groupRows; r++) {
      if (b.shape.ticks) b.beginTickRow();
      let error: string | null = null;
      for (let i = 0; i < data.length && error === null; i++) {
        const code = selected.codes[i]!;
        if (code !== CODE_SKIP) error = writeValue(ctx, code, selected.columns[i]!, data[i]![r]);
      }
      const line = groupStart + r + 1;
      if (error === null) error = b.commit(line);
      if (error !== null) b.problem(line, error);
    }
    groupStart = groupEnd;
    yield groupStart;
  }
}
