// Which subscribe batch carried which venue symbols on the current connection, and which symbols
// the venue refused. Many venues refuse a whole batch for one unknown symbol; this bookkeeping lets
// the client resubscribe the rest of that batch without it, so one refusal costs no other symbol.

/** How a refusal is split: the refused symbols out, the rest of each batch they were in to resubscribe. */
export interface RefusalSplit {
  /** Batches to subscribe again (each a list of venue symbols). */
  resubscribe: string[][];
}

export class SubscriptionBatches {
  /** Venue symbols by request id, for the batches sent on this connection and not yet settled. */
  private readonly byRequest = new Map<number, string[]>();
  /** Venue symbols the venue refused; each new connection retries them alone, so they cost no batch. */
  readonly refused = new Set<string>();

  /** A new connection: no batch of the old one can be answered any more. */
  reset(): void {
    this.byRequest.clear();
  }

  add(requestId: number, venueSymbols: string[]): void {
    this.byRequest.set(requestId, venueSymbols);
  }

  /** The symbols of one batch, taken out of the book (a refusal answered it), or undefined. */
  take(requestId: number): string[] | undefined {
    const batch = this.byRequest.get(requestId);
    this.byRequest.delete(requestId);
    return batch;
  }

  /** The venue confirmed this symbol (an ack naming it, or data): it is no longer refused. */
  confirm(venueSymbol: string): void {
    this.refused.delete(venueSymbol);
  }

  /**
   * The venue refused these symbols and, with them, the batches that carried them: the refused
   * symbols are recorded, and what else those batches held comes back to be resubscribed.
   */
  refuse(venueSymbols: Iterable<string>, wholeBatch: boolean): RefusalSplit {
    const names = new Set(venueSymbols);
    for (const s of names) this.refused.add(s);
    if (!wholeBatch) return { resubscribe: [] };
    const resubscribe: string[][] = [];
    for (const [id, batch] of [...this.byRequest]) {
      if (!batch.some((s) => names.has(s))) continue;
      this.byRequest.delete(id);
      const rest = batch.filter((s) => !this.refused.has(s));
      if (rest.length > 0) resubscribe.push(rest);
    }
    return { resubscribe };
  }
}

/** A batch refused without naming a symbol, split in two halves to find the symbol by bisection. */
export function halves(batch: readonly string[]): string[][] {
  const mid = Math.ceil(batch.length / 2);
  return [batch.slice(0, mid), batch.slice(mid)].filter((h) => h.length > 0);
}
