// If-None-Match evaluation (RFC 9110 §13.1.2): `*`, or a list of entity tags compared weakly,
// so `W/"x"` and `"x"` match and a client may send every tag it holds.

/** The opaque part of one entity tag (`"x"` of `W/"x"`), or null when it is not a tag. */
function opaqueTag(tag: string): string | null {
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  return opaque.length >= 2 && opaque.startsWith('"') && opaque.endsWith('"') && opaque.indexOf('"', 1) === opaque.length - 1 ? opaque : null;
}

/** True when `ifNoneMatch` matches the current `etag` by weak comparison: the response is a 304. */
export function isNotModified(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  const current = opaqueTag(etag);
  if (current === null) return false;
  if (ifNoneMatch.trim() === '*') return true;
  // A tag may itself hold commas (etagc allows them), so the list is scanned tag by tag, not split.
  let at = 0;
  const n = ifNoneMatch.length;
  while (at < n) {
    const ch = ifNoneMatch[at]!;
    if (ch === ',' || ch === ' ' || ch === '\t') {
      at++;
      continue;
    }
    const quoteAt = ifNoneMatch.startsWith('W/"', at) ? at + 2 : ch === '"' ? at : -1;
    if (quoteAt < 0) return false;
    const close = ifNoneMatch.indexOf('"', quoteAt + 1);
    if (close < 0) return false;
    if (ifNoneMatch.slice(quoteAt, close + 1) === current) return true;
    at = close + 1;
  }
  return false;
}
