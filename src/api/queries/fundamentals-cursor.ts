// The opaque paging cursor of `/fundamentals/stocks`: the last symbol served, signed with the data
// dir's secret so a forged or altered cursor is refused. Resuming strictly after a symbol (not at
// an offset) keeps paging free of duplicates and gaps while records are added underneath.
import { createHmac, timingSafeEqual } from 'node:crypto';

const MAC_BYTES = 12;

function macOf(key: Uint8Array, lastSymbol: string): Buffer {
  return createHmac('sha256', key).update(`fundamentals-page:${lastSymbol}`).digest().subarray(0, MAC_BYTES);
}

export function encodeCursor(key: Uint8Array, lastSymbol: string): string {
  return `${Buffer.from(lastSymbol, 'utf8').toString('base64url')}.${macOf(key, lastSymbol).toString('base64url')}`;
}

/** The last symbol a cursor stands for, or null when it was not made by this data dir. */
export function decodeCursor(key: Uint8Array, cursor: string): string | null {
  const dot = cursor.indexOf('.');
  if (dot <= 0 || cursor.length > 200 || !/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(cursor)) return null;
  const lastSymbol = Buffer.from(cursor.slice(0, dot), 'base64url').toString('utf8');
  // Compared as text: base64url decoding ignores stray trailing characters, the text does not.
  const mac = Buffer.from(cursor.slice(dot + 1));
  const expected = Buffer.from(macOf(key, lastSymbol).toString('base64url'));
  const canonical = Buffer.from(lastSymbol, 'utf8').toString('base64url') === cursor.slice(0, dot);
  return canonical && mac.length === expected.length && timingSafeEqual(mac, expected) ? lastSymbol : null;
}
