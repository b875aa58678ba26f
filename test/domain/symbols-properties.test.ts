// Symbol parsing on arbitrary input: it returns a canonical symbol or throws a 400 or 404 ApiError,
// nothing else (404 only for names of allowed characters); the canonical form is trimmed, upper case, safe characters only and a fixed
// point; case and surrounding blanks never change the result; non-ASCII never gets through.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { ASSET_CLASSES, type AssetClass } from '../../src/domain/asset-classes.ts';
import { ApiError } from '../../src/domain/errors.ts';
import { MAX_SYMBOL_LENGTH, normalizeSymbol } from '../../src/domain/symbols.ts';

type Outcome = { ok: true; symbol: string } | { ok: false; status: number };

function outcome(cls: AssetClass, raw: string): Outcome {
  try {
    return { ok: true, symbol: normalizeSymbol(cls, raw) };
  } catch (err) {
    if (err instanceof ApiError) return { ok: false, status: err.status };
    throw err;
  }
}

const anyClass = fc.constantFrom(...ASSET_CLASSES);
/** Arbitrary text, biased towards symbol-like strings with odd characters mixed in. */
const anyText = fc.oneof(
  fc.string({ maxLength: 50 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.stringMatching(/^[ \ta-zA-Z0-9.:_\-/\\%ßſı]{0,40}$/),
);
const blank = fc.constantFrom('', ' ', '  ', '\t', ' \n');

describe('normalizeSymbol properties', () => {
  test('returns a canonical symbol or throws a 400 or 404 ApiError, never anything else', () => {
    fc.assert(
      fc.property(anyClass, anyText, (cls, raw) => {
        const r = outcome(cls, raw);
        if (!r.ok) {
          expect([400, 404]).toContain(r.status);
          // A 404 names something that could have been a symbol: safe characters, bounded length.
          if (r.status === 404) expect(raw.trim()).toMatch(/^[A-Za-z0-9.:_-]{1,32}$/);
          return;
        }
        expect(r.symbol).toBe(raw.trim().toUpperCase());
        expect(r.symbol).toMatch(/^[A-Z0-9.:_-]+$/);
        expect(r.symbol.length).toBeLessThanOrEqual(MAX_SYMBOL_LENGTH);
        expect(normalizeSymbol(cls, r.symbol)).toBe(r.symbol);
      }),
      { numRuns: 3000 },
    );
  });

  test('case and surrounding blanks do not change the outcome', () => {
    fc.assert(
      fc.property(anyClass, fc.stringMatching(/^[a-zA-Z0-9.:_-]{0,34}$/), blank, blank, (cls, core, before, after) => {
        expect(outcome(cls, `${before}${core.toLowerCase()}${after}`)).toEqual(outcome(cls, core.toUpperCase()));
      }),
      { numRuns: 2000 },
    );
  });

  test('input with a non-ASCII character is refused, even one that upper-cases to ASCII', () => {
    fc.assert(
      fc.property(anyClass, fc.stringMatching(/^[a-z0-9]{0,8}$/), fc.constantFrom('ß', 'ſ', 'ı', 'é', 'Ｂ', 'x\u00a0x', '€'), fc.stringMatching(/^[a-z0-9]{0,8}$/), (cls, left, odd, right) => {
        expect(outcome(cls, `${left}${odd}${right}`)).toEqual({ ok: false, status: 400 });
      }),
    );
  });
});
