// Generated 1-minute kline files for the import benches: a deterministic random walk written as
// Binance writes its kline CSVs (8 decimals), or as a generic `t,o,h,l,c,v` CSV with a header.

export interface KlineFileOptions {
  /** Generic `t,o,h,l,c,v` with a header instead of the Binance layout. */
  generic?: boolean;
  /** The first bar's start (default 2024-01-01); an import bench starts in the past so every bar has ended. */
  startMs?: number;
}

/** Writes about `bytes` of klines to `path`; returns the rows written. */
export async function writeKlines(path: string, bytes: number, opts: KlineFileOptions = {}): Promise<number> {
  const out = Bun.file(path).writer({ highWaterMark: 1 << 20 });
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let t = opts.startMs ?? 1704067200000;
  let price = 42283.58;
  let written = 0;
  let rows = 0;
  let text = opts.generic ? 't,o,h,l,c,v\n' : '';
  while (written + text.length < bytes) {
    const o = price;
    const c = Math.max(1, o + (random() - 0.5) * 40);
    const h = Math.max(o, c) + random() * 10;
    const l = Math.min(o, c) - random() * 10;
    const v = random() * 50;
    text += opts.generic
      ? `${t},${o.toFixed(2)},${h.toFixed(2)},${l.toFixed(2)},${c.toFixed(2)},${v.toFixed(5)}\n`
      : `${t},${o.toFixed(8)},${h.toFixed(8)},${l.toFixed(8)},${c.toFixed(8)},${v.toFixed(8)},${t + 59999},${(v * o).toFixed(8)},${Math.floor(random() * 3000)},${(v / 2).toFixed(8)},${((v / 2) * o).toFixed(8)},0\n`;
    rows++;
    price = c;
    t += 60_000;
    if (text.length > 1 << 20) {
      out.write(text);
      written += text.length;
      text = '';
    }
  }
  out.write(text);
  await out.end();
  return rows;
}
