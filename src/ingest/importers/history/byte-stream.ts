// Opens a history file as a stream of decompressed byte chunks: the container (plain, gzip, zstd)
// is told by the file's first bytes, not its name, and the bytes of the file as stored are counted
// as they are read, for progress. Nothing holds more than a few chunks at a time.
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createGunzip, createZstdDecompress } from 'node:zlib';
import { InputFileError } from '../fundamentals-file.ts';
import { ZstdFrameWatcher } from './zstd-frames.ts';

export type Container = 'plain' | 'gzip' | 'zstd';

const READ_CHUNK = 1 << 20;
const INFLATE_CHUNK = 1 << 18;
const COMPRESSED_SUFFIX = /\.(gz|gzip|zst|zstd)$/i;

export interface FileHead {
  sizeBytes: number;
  container: Container;
  /** Up to the first 4 bytes of the file as stored. */
  magic: Uint8Array;
}

/** The file name without a compression suffix (`x.csv.gz` → `x.csv`). */
export function withoutCompressionSuffix(path: string): string {
  return path.replace(COMPRESSED_SUFFIX, '');
}

function describeOpenError(path: string, err: unknown): InputFileError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new InputFileError(`${path}: no such file`);
  if (code === 'EACCES' || code === 'EPERM') return new InputFileError(`${path}: not readable (permission denied)`);
  if (code === 'EISDIR') return new InputFileError(`${path}: is a directory, not a file`);
  return new InputFileError(`${path}: cannot be read (${(err as Error).message})`);
}

/** Size and container of a file, read at once so that a missing or unreadable file fails before any row. */
export function readHead(path: string): FileHead {
  let fd: number;
  let sizeBytes: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    sizeBytes = stat.size;
    fd = openSync(path, 'r');
  } catch (err) {
    throw describeOpenError(path, err);
  }
  const magic = new Uint8Array(4);
  let got: number;
  try {
    got = readSync(fd, magic, 0, 4, 0);
  } catch (err) {
    throw describeOpenError(path, err);
  } finally {
    closeSync(fd);
  }
  const head = magic.subarray(0, got);
  let container: Container = 'plain';
  if (got >= 2 && head[0] === 0x1f && head[1] === 0x8b) container = 'gzip';
  else if (got >= 4 && head[0] === 0x28 && head[1] === 0xb5 && head[2] === 0x2f && head[3] === 0xfd) container = 'zstd';
  else if (COMPRESSED_SUFFIX.test(path) && !looksLikeText(head)) throw new InputFileError(`${path}: named as compressed but holds neither gzip nor zstd data (nor text)`);
  return { sizeBytes, container, magic: head };
}

/** A file whose name says compressed but whose bytes are text was decompressed on the way (browsers do that): read it plain. */
function looksLikeText(head: Uint8Array): boolean {
  if (head.length === 0) return true;
  return [...head].every((b) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b !== 0x7f));
}

function describeStreamError(path: string, container: Container, err: unknown): InputFileError {
  if (err instanceof InputFileError) return err;
  const e = err as NodeJS.ErrnoException;
  const name = container === 'gzip' ? 'gzip' : 'zstd';
  if (e.code === 'Z_BUF_ERROR' || /unexpected end/i.test(e.message)) return new InputFileError(`${path}: the ${name} data ends early (a truncated file?)`);
  if (e.code !== undefined && /^E[A-Z]+$/.test(e.code)) return describeOpenError(path, err);
  if (container !== 'plain') return new InputFileError(`${path}: the ${name} data is corrupt (${e.message})`);
  return new InputFileError(`${path}: read failed (${e.message})`);
}

/**
 * The decompressed bytes of a file, chunk by chunk; `onRead` gets the running count of stored bytes
 * read. Errors (a truncated or corrupt stream, an unreadable file) are InputFileErrors.
 */
export async function* decompressedChunks(path: string, container: Container, onRead: (storedBytes: number) => void): AsyncGenerator<Uint8Array> {
  let stored = 0;
  if (container === 'plain') {
    // One buffer, read into again once the consumer asked for the next chunk (the CSV and NDJSON
    // readers copy what they keep): no garbage per megabyte read.
    let file: FileHandle | null = null;
    try {
      file = await open(path, 'r');
      const buf = new Uint8Array(READ_CHUNK);
      for (;;) {
        const { bytesRead } = await file.read(buf, 0, READ_CHUNK, stored);
        if (bytesRead === 0) break;
        stored += bytesRead;
        onRead(stored);
        yield buf.subarray(0, bytesRead);
      }
    } catch (err) {
      throw describeStreamError(path, container, err);
    } finally {
      await file?.close();
    }
    return;
  }
  const raw = createReadStream(path, { highWaterMark: READ_CHUNK });
  const inflate = container === 'gzip' ? createGunzip({ chunkSize: INFLATE_CHUNK }) : createZstdDecompress({ chunkSize: INFLATE_CHUNK });
  const frames = container === 'zstd' ? new ZstdFrameWatcher() : null;
  raw.on('data', (chunk: Buffer) => {
    stored += chunk.length;
    frames?.push(chunk);
  });
  raw.on('error', (err) => inflate.destroy(err));
  raw.pipe(inflate);
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      onRead(stored);
      yield chunk;
    }
    if (frames !== null && !frames.endsCleanly(stored > 0)) throw new InputFileError(`${path}: the zstd data ends early (a truncated file?)`);
    onRead(stored);
  } catch (err) {
    throw describeStreamError(path, container, err);
  } finally {
    raw.destroy();
    inflate.destroy();
  }
}
