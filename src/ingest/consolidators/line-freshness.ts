// Whether a consolidated line still has a live source: the rule behind the `stale` marker on REST
// answers and the stream's status frames. A source counts while its latest quote is uncrossed and
// within the class's stale window of the service clock; a source a feed declared stale has already
// left the book. Pure reads of the book's flat arrays; called only when the answer may change.
import type { VenueBook } from './policies.ts';

/** Newest quote time among the book's sources with an uncrossed quote, or -Infinity when none has one. */
export function newestQuoteMs(book: VenueBook): number {
  let newest = -Infinity;
  for (let v = 0; v < book.size; v++) {
    if (book.has[v] === 1 && book.bid[v]! < book.ask[v]! && book.tsMs[v]! > newest) newest = book.tsMs[v]!;
  }
  return newest;
}

/** How many sources count at `nowMs`: an uncrossed quote no older than `staleMs`. */
export function liveSourceCount(book: VenueBook, nowMs: number, staleMs: number): number {
  let n = 0;
  for (let v = 0; v < book.size; v++) {
    if (book.has[v] === 1 && book.bid[v]! < book.ask[v]! && nowMs - book.tsMs[v]! <= staleMs) n++;
  }
  return n;
}
