// Reads recording files block by block, from disk positions (a file may be large, and may still be
// written while it is read). What cannot be read is skipped with a note, never thrown: a torn last
// block after a crash, a block that fails its checksum, bytes that are not blocks.
import { closeSync, fstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { zstdDecompressSync } from 'node:zlib';
import { unpack } from 'msgpackr';
import { decodeHeader, findHeader, HEADER_BYTES, RECORDING_EXTENSION, type BlockHeader, type Declarations } from './recording-format.ts';

export interface Block {
  file: string;
  offset: number;
  header: BlockHeader;
  /** The decompressed content; null when the caller did not ask for it. */
  content: Uint8Array | null;
}

/** Something in a file that could not be read, and what was skipped because of it. */
export type NoteSink = (text: string) => void;

/** How far the reader searches past unreadable bytes for the next block header at once. */
const RESYNC_WINDOW = 1 << 20;

/**
 * The blocks of one file in order, up to its size when opened. `wantContent` decides per header
 * whether the block is decompressed (a scan reads only declarations); a block whose content does
 * not decode is skipped with a note.
 */
export function* readBlocks(file: string, note: NoteSink, wantContent: (h: BlockHeader) => boolean = () => true): Generator<Block> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    note(`${file}: cannot be read (${(err as Error).message}): skipped`);
    return;
  }
  try {
    const size = fstatSync(fd).size;
    const headerBytes = new Uint8Array(HEADER_BYTES);
    let pos = 0;
    while (pos < size) {
      const got = readSync(fd, headerBytes, 0, HEADER_BYTES, pos);
      const header = decodeHeader(headerBytes.subarray(0, got), 0);
      if (header === 'incomplete') {
        note(`${file}: the last block (byte ${pos}) is incomplete, cut short by a crash or still being written: skipped`);
        return;
      }
      if (typeof header === 'string') {
        const next = resync(fd, pos + 1, size);
        note(`${file}: bytes ${pos}..${next < 0 ? size : next} are not a recording block (${header}): skipped`);
        if (next < 0) return;
        pos = next;
        continue;
      }
      const frameAt = pos + HEADER_BYTES;
      if (frameAt + header.frameBytes > size) {
        note(`${file}: the last block (byte ${pos}, ${header.records} records) is incomplete, cut short by a crash or still being written: skipped`);
        return;
      }
      let content: Uint8Array | null = null;
      if (wantContent(header)) {
        const frame = new Uint8Array(header.frameBytes);
        readSync(fd, frame, 0, header.frameBytes, frameAt);
        const decoded = decompress(frame, header.contentBytes);
        if (typeof decoded === 'string') {
          note(`${file}: the block at byte ${pos} does not decode (${decoded}): ${header.records} records skipped`);
          pos = frameAt + header.frameBytes;
          continue;
        }
        content = decoded;
      }
      yield { file, offset: pos, header, content };
      pos = frameAt + header.frameBytes;
    }
  } finally {
    closeSync(fd);
  }
}

function decompress(frame: Uint8Array, contentBytes: number): Uint8Array | string {
  try {
    const out = zstdDecompressSync(frame);
    // A frame cut short can decompress to less without an error: the length says it is whole.
    if (out.length !== contentBytes) return `${out.length} bytes where the header says ${contentBytes}`;
    return new Uint8Array(out.buffer, out.byteOffset, out.length);
  } catch (err) {
    return (err as Error).message;
  }
}

/** The position of the next block header at or after `from`, or -1. */
function resync(fd: number, from: number, size: number): number {
  const window = new Uint8Array(RESYNC_WINDOW + HEADER_BYTES);
  for (let at = from; at < size; at += RESYNC_WINDOW) {
    const got = readSync(fd, window, 0, window.length, at);
    const found = findHeader(window.subarray(0, got), 0);
    if (found >= 0) return at + found;
  }
  return -1;
}

/** The declarations in a declarations block's content, or a reason it is malformed. */
export function readDeclarations(content: Uint8Array): Declarations | string {
  try {
    const d = unpack(content) as Partial<Declarations> | null;
    if (d === null || typeof d !== 'object' || !Array.isArray(d.feeds) || !Array.isArray(d.sources)) return 'not a declarations record';
    return { feeds: d.feeds, sources: d.sources };
  } catch (err) {
    return (err as Error).message;
  }
}

/**
 * The recording files at `path`: the file itself, or every `*.rec.zst` under a directory in path
 * order, which is time order (`YYYY-MM-DD/HH.rec.zst`). A string says why there are none.
 */
export function listRecordingFiles(path: string): string[] | string {
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    return `${path} does not exist`;
  }
  if (!isDir) return [path];
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(RECORDING_EXTENSION)) found.push(full);
    }
  };
  walk(path);
  if (found.length === 0) return `${path} holds no recording files (*${RECORDING_EXTENSION})`;
  return found.sort((a, b) => (relative(path, a) < relative(path, b) ? -1 : 1));
}
