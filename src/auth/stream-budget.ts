// A key's stream budget, over all its connections and reconnects: client frames per 10 s and
// upgrade attempts per minute, as its plan sets them (domain/plans.ts streamBudgetOf). Without it a
// key could reset a per-connection limit by reconnecting. A frame costs a few typed-array reads and
// writes: a key gets a slot when it connects, its connections carry the slot number, and slots of
// keys gone quiet are reused after their windows end.
import type { Clock } from '../clock.ts';
import type { Account } from '../domain/account.ts';
import { streamBudgetOf } from '../domain/plans.ts';

export const FRAME_WINDOW_MS = 10_000;
export const CONNECT_WINDOW_MS = 60_000;
/** Refusals of one key held back at once (see park); past these they are answered at once. */
export const MAX_PARKED_PER_KEY = 4;

/** Where one of a key's windows stands, for a refusal's message and headers. */
export interface BudgetStanding {
  limit: number;
  remaining: number;
  /** When the window ends (Unix ms). */
  resetMs: number;
}

export class StreamBudgets {
  private readonly slotOfKey = new Map<string, number>();
  private keyOfSlot: (string | null)[] = [];
  private readonly freeSlots: number[] = [];
  // Per slot. Windows are fixed and start at a key's first frame or attempt after the last one ended.
  private frameStart = new Float64Array(0);
  private frameUsed = new Float64Array(0);
  private frameLimit = new Float64Array(0);
  private connectStart = new Float64Array(0);
  private connectUsed = new Float64Array(0);
  private connectLimit = new Float64Array(0);
  /** Open connections and parked refusals holding the slot: a held slot is never reused. */
  private holders = new Int32Array(0);
  private parked = new Int32Array(0);

  constructor(private readonly clock: Clock) {}

  /** The key's slot, made on first use; its limits follow the account's plan as of now. */
  slotOf(account: Account): number {
    let slot = this.slotOfKey.get(account.id);
    if (slot === undefined) {
      slot = this.freeSlots.pop() ?? this.grow();
      this.slotOfKey.set(account.id, slot);
      this.keyOfSlot[slot] = account.id;
      this.frameStart[slot] = -Infinity;
      this.frameUsed[slot] = 0;
      this.connectStart[slot] = -Infinity;
      this.connectUsed[slot] = 0;
      this.holders[slot] = 0;
      this.parked[slot] = 0;
    }
    const budget = streamBudgetOf(account.plan);
    this.frameLimit[slot] = budget.framesPer10s;
    this.connectLimit[slot] = budget.connectsPerMinute;
    return slot;
  }

  /** Counts one upgrade attempt; null when allowed, else where the minute stands. */
  takeConnect(slot: number): BudgetStanding | null {
    const now = this.clock.nowMs();
    if (now - this.connectStart[slot]! >= CONNECT_WINDOW_MS) {
      this.connectStart[slot] = now;
      this.connectUsed[slot] = 0;
    }
    if (this.connectUsed[slot]! >= this.connectLimit[slot]!) return this.connectStanding(slot);
    this.connectUsed[slot]!++;
    return null;
  }

  /** Counts one client frame (the hot path: no allocation); false once the key's 10 s are used up. */
  takeFrame(slot: number, nowMs: number): boolean {
    if (nowMs - this.frameStart[slot]! >= FRAME_WINDOW_MS) {
      this.frameStart[slot] = nowMs;
      this.frameUsed[slot] = 0;
    }
    return ++this.frameUsed[slot]! <= this.frameLimit[slot]!;
  }

  /** Where the key's frame window stands; `remaining` 0 means a new connection would be closed at its first frame. */
  frameStanding(slot: number): BudgetStanding {
    const start = this.frameStart[slot]!;
    const limit = this.frameLimit[slot]!;
    if (this.clock.nowMs() - start >= FRAME_WINDOW_MS) return { limit, remaining: limit, resetMs: this.clock.nowMs() + FRAME_WINDOW_MS };
    return { limit, remaining: Math.max(0, limit - this.frameUsed[slot]!), resetMs: start + FRAME_WINDOW_MS };
  }

  private connectStanding(slot: number): BudgetStanding {
    const limit = this.connectLimit[slot]!;
    return { limit, remaining: Math.max(0, limit - this.connectUsed[slot]!), resetMs: this.connectStart[slot]! + CONNECT_WINDOW_MS };
  }

  /** An open connection holds its key's slot until it closes. */
  hold(slot: number): void {
    this.holders[slot]!++;
  }

  release(slot: number): void {
    this.holders[slot]!--;
  }

  /**
   * Holds back one refusal of the key (its answer is delayed, so a client that retries at once
   * cannot make the server answer refusals as fast as it can ask); false when MAX_PARKED_PER_KEY
   * are held already.
   */
  park(slot: number): boolean {
    if (this.parked[slot]! >= MAX_PARKED_PER_KEY) return false;
    this.parked[slot]!++;
    this.holders[slot]!++;
    return true;
  }

  unpark(slot: number): void {
    this.parked[slot]!--;
    this.holders[slot]!--;
  }

  /** Frees the slots of keys with no open connection whose windows have both ended (so nothing they did still counts). */
  sweep(): void {
    const now = this.clock.nowMs();
    for (let slot = 0; slot < this.keyOfSlot.length; slot++) {
      const key = this.keyOfSlot[slot];
      if (key === null || key === undefined || this.holders[slot]! > 0) continue;
      if (now - this.frameStart[slot]! < FRAME_WINDOW_MS || now - this.connectStart[slot]! < CONNECT_WINDOW_MS) continue;
      this.slotOfKey.delete(key);
      this.keyOfSlot[slot] = null;
      this.freeSlots.push(slot);
    }
  }

  /** Keys with a slot now (open connections, or windows not yet ended). */
  get size(): number {
    return this.slotOfKey.size;
  }

  /** Doubles every array; returns the first new slot and lists the rest as free. */
  private grow(): number {
    const old = this.keyOfSlot.length;
    const size = Math.max(16, old * 2);
    const widen = <A extends Float64Array | Int32Array>(a: A, make: (n: number) => A): A => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.frameStart = widen(this.frameStart, (n) => new Float64Array(n));
    this.frameUsed = widen(this.frameUsed, (n) => new Float64Array(n));
    this.frameLimit = widen(this.frameLimit, (n) => new Float64Array(n));
    this.connectStart = widen(this.connectStart, (n) => new Float64Array(n));
    this.connectUsed = widen(this.connectUsed, (n) => new Float64Array(n));
    this.connectLimit = widen(this.connectLimit, (n) => new Float64Array(n));
    this.holders = widen(this.holders, (n) => new Int32Array(n));
    this.parked = widen(this.parked, (n) => new Int32Array(n));
    for (let slot = size - 1; slot > old; slot--) {
      this.keyOfSlot[slot] = null;
      this.freeSlots.push(slot);
    }
    this.keyOfSlot[old] = null;
    return old;
  }
}
