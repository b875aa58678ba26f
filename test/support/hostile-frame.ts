// The largest subscribe frame the protocol admits: 1,000 channels × 1,000 symbols (~25 KB), every
// symbol a spelling variant (case, a leading space) of a valid crypto pair. Used by the hostile
// frames test and by the abusive client of bench/reconnect-flood.ts.
import { CRYPTO } from '../../src/ingest/reference/crypto.ts';

/** Spelling variants of every crypto symbol (case, spaces): 1,000 distinct strings naming valid pairs. */
export function hostileSymbols(): string[] {
  const out: string[] = [];
  for (let variant = 0; out.length < 1000; variant++) {
    for (const { symbol } of CRYPTO) {
      const spelled = [...symbol].map((ch, i) => ((variant >> i) & 1 ? ch.toLowerCase() : ch)).join('');
      out.push(variant >= 64 ? ` ${spelled}` : spelled);
      if (out.length === 1000) break;
    }
  }
  return out;
}

export const HOSTILE_FRAME = JSON.stringify({ action: 'subscribe', channels: Array(1000).fill('crypto.quotes'), symbols: hostileSymbols() });
