// A chart primitive that draws behind the candles: session opens as thin vertical lines with the
// date, and coverage gaps as shaded bands (the slots of a gap are whitespace points on the time
// axis, so a gap takes the room its missing bars would). Times are placed through the chart's own
// bar positions: the axis is one slot per bar, closed hours take no room.
import type { IChartApi, IPrimitivePaneRenderer, IPrimitivePaneView, ISeriesPrimitive, SeriesAttachedParameter, Time } from 'lightweight-charts';

type DrawTarget = Parameters<IPrimitivePaneRenderer['draw']>[0];

export interface Band {
  from: number;
  to: number;
  /** Slots in the band (for the label). */
  count: number;
}

export interface SessionLine {
  at: number;
  label: string;
}

export interface BandColors {
  gap: string;
  gapEdge: string;
  session: string;
  text: string;
}

export class TimeBands implements ISeriesPrimitive<Time> {
  private chart: IChartApi | null = null;
  private requestUpdate: (() => void) | null = null;
  /** The time (Unix ms) of every point on the axis, candles and whitespace, in order. */
  private times: number[] = [];
  private gaps: Band[] = [];
  private sessions: SessionLine[] = [];
  private readonly view: IPrimitivePaneView;

  constructor(private colors: BandColors) {
    const renderer: IPrimitivePaneRenderer = { draw: () => {}, drawBackground: (target) => this.draw(target) };
    this.view = { zOrder: () => 'bottom', renderer: () => renderer };
  }

  attached(param: SeriesAttachedParameter<Time>): void {
    this.chart = param.chart as IChartApi;
    this.requestUpdate = param.requestUpdate;
  }

  detached(): void {
    this.chart = null;
    this.requestUpdate = null;
  }

  paneViews(): readonly IPrimitivePaneView[] {
    return [this.view];
  }

  set(times: number[], gaps: Band[], sessions: SessionLine[]): void {
    this.times = times;
    this.gaps = gaps;
    this.sessions = sessions;
    this.requestUpdate?.();
  }

  setColors(colors: BandColors): void {
    this.colors = colors;
    this.requestUpdate?.();
  }

  /** The axis slot of the first point at or after `t` (fractional past the end). */
  private slotOf(t: number): number {
    let lo = 0;
    let hi = this.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.times[mid]! < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private draw(target: DrawTarget): void {
    const chart = this.chart;
    if (!chart || this.times.length === 0) return;
    const scale = chart.timeScale();
    const spacing = scale.options().barSpacing;
    const x = (slot: number) => {
      const c = scale.logicalToCoordinate(slot as never);
      return c === null ? null : c - spacing / 2;
    };
    target.useBitmapCoordinateSpace(({ context: ctx, bitmapSize, horizontalPixelRatio: hr, verticalPixelRatio: vr }) => {
      const height = bitmapSize.height;
      ctx.save();
      // Gaps: a shaded band over the slots that have no bar and had no live feed.
      for (const g of this.gaps) {
        const a = x(this.slotOf(g.from));
        const b = x(this.slotOf(g.to));
        if (a === null || b === null || b <= 0 || a >= bitmapSize.width / hr) continue;
        ctx.fillStyle = this.colors.gap;
        ctx.fillRect(Math.round(a * hr), 0, Math.max(1, Math.round((b - a) * hr)), height);
        ctx.fillStyle = this.colors.gapEdge;
        ctx.fillRect(Math.round(a * hr), height - Math.round(4 * vr), Math.max(1, Math.round((b - a) * hr)), Math.round(4 * vr));
      }
      // Session opens, skipped where they would crowd each other.
      let lastX = -Infinity;
      ctx.fillStyle = this.colors.session;
      ctx.font = `${Math.round(10 * vr)}px system-ui, sans-serif`;
      for (const s of this.sessions) {
        const slot = this.slotOf(s.at);
        if (slot >= this.times.length) continue;
        const px = x(slot);
        if (px === null || px < 0 || px - lastX < 48) continue;
        lastX = px;
        const bx = Math.round(px * hr);
        ctx.fillStyle = this.colors.session;
        ctx.fillRect(bx, 0, Math.max(1, Math.round(hr)), height);
        ctx.fillStyle = this.colors.text;
        // At the foot of the pane, clear of the legend at its head.
        ctx.fillText(s.label, bx + Math.round(3 * hr), height - Math.round(6 * vr));
      }
      ctx.restore();
    });
  }
}
