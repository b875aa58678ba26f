// The incremental CSV reader: quoting, line numbers, and the same records however the text is cut.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { CsvReader } from '../../src/ingest/importers/csv.ts';

function readAll(chunks: string[]) {
  const reader = new CsvReader();
  return [...chunks.flatMap((c) => reader.push(c)), ...reader.end()];
}

describe('CsvReader', () => {
  test('quoted cells keep commas, doubled quotes and newlines; records know their first line', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""",3\n\n"multi\nline",,\nlast,row,"end"';
    expect(readAll([text])).toEqual([
      { line: 1, cells: ['a', 'b', 'c'] },
      { line: 2, cells: ['x, y', 'say "hi"', '3'] },
      { line: 4, cells: ['multi\nline', '', ''] },
      { line: 6, cells: ['last', 'row', 'end'] },
    ]);
  });

  test('an unclosed quote is an error naming the line the record starts on', () => {
    expect(() => readAll(['a,b\n1,"open\n2,3\n'])).toThrow('line 2: a quoted cell is never closed');
  });

  test('property: any split of the text into chunks gives the same records', () => {
    const cell = fc.oneof(fc.string({ maxLength: 6 }).map((s) => s.replace(/["\r\n,]/g, '')), fc.string({ maxLength: 6 }).map((s) => `"${s.replace(/"/g, '""')}"`));
    const row = fc.array(cell, { minLength: 1, maxLength: 4 }).map((cells) => cells.join(','));
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 6 }), (rows, cuts) => {
        const text = rows.join('\n');
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const chunks: string[] = [];
        let from = 0;
        for (const p of points) {
          chunks.push(text.slice(from, p));
          from = p;
        }
        chunks.push(text.slice(from));
        expect(readAll(chunks)).toEqual(readAll([text]));
      }),
    );
  });
});
