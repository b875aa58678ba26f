// An incremental CSV reader (RFC 4180: comma-separated, `"` quotes, `""` inside quotes, CRLF or
// LF): text goes in chunk by chunk, records come out with the line each one starts on, so an
// import can stream a large file and still name the line of a bad row.

export interface CsvRecord {
  /** 1-based line the record starts on. */
  line: number;
  cells: string[];
}

export class CsvReader {
  private cells: string[] = [];
  private cell = '';
  private quoted = false;
  /** After a closing quote: the next `"` is an escaped quote, anything else ends the quoting. */
  private quoteSeen = false;
  private line = 1;
  private recordLine = 1;
  private recordHasText = false;

  /** Feeds a chunk; returns the records it completed. */
  push(text: string): CsvRecord[] {
    const out: CsvRecord[] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      if (this.quoted) {
        if (this.quoteSeen) {
          this.quoteSeen = false;
          if (ch === '"') {
            this.cell += '"';
            continue;
          }
          this.quoted = false;
          // fall through: the character after a closing quote is read as unquoted
        } else if (ch === '"') {
          this.quoteSeen = true;
          continue;
        } else {
          if (ch === '\n') this.line++;
          this.cell += ch;
          continue;
        }
      }
      if (ch === '"' && this.cell.length === 0) {
        this.quoted = true;
        this.recordHasText = true;
      } else if (ch === ',') {
        this.cells.push(this.cell);
        this.cell = '';
        this.recordHasText = true;
      } else if (ch === '\n') {
        this.endRecord(out);
        this.line++;
        this.recordLine = this.line;
      } else if (ch !== '\r') {
        this.cell += ch;
        if (ch !== ' ' && ch !== '\t') this.recordHasText = true;
      }
    }
    return out;
  }

  /** Ends the input; returns the last record if the file did not end with a newline. */
  end(): CsvRecord[] {
    const out: CsvRecord[] = [];
    if (this.quoted && !this.quoteSeen) throw new Error(`line ${this.recordLine}: a quoted cell is never closed`);
    this.quoted = false;
    this.quoteSeen = false;
    this.endRecord(out);
    return out;
  }

  private endRecord(out: CsvRecord[]): void {
    this.cells.push(this.cell);
    // Blank lines are not records.
    if (this.recordHasText || this.cells.length > 1) out.push({ line: this.recordLine, cells: this.cells });
    this.cells = [];
    this.cell = '';
    this.recordHasText = false;
  }
}
