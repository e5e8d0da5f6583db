/**
 * How the model pages' charts draw their axes: type sizes (larger in presentation mode, read from
 * the back), the ink, and the captions that name each axis, so every chart says the same thing
 * the same way. `chartAxes` gives the props to spread on recharts' `XAxis`/`YAxis` (and the
 * labels of reference lines).
 */
export interface ChartFont {
  tick: number;
  label: number;
  /** Approximate width of one character of a tick label, for axis widths. */
  charWidth: number;
}

export function chartFont(presenting: boolean): ChartFont {
  return presenting
    ? { tick: 14, label: 15, charWidth: 9.2 }
    : { tick: 11, label: 12, charWidth: 7.2 };
}

/** Width of a category axis that fits its longest label (within bounds). */
export function categoryAxisWidth(labels: readonly string[], font: ChartFont, max = 260): number {
  const longest = labels.reduce((m, l) => Math.max(m, l.length), 0);
  return Math.min(max, Math.max(60, Math.ceil(longest * font.charWidth) + 14));
}

/** An axis's caption as recharts draws it (`label` of `XAxis`/`YAxis`). */
interface AxisCaption {
  value: string;
  position: 'insideBottom' | 'insideLeft';
  /** Away from the plot (recharts' own 5 when absent). */
  offset?: number;
  fill: string;
  fontSize: number;
  angle?: number;
  style?: { textAnchor: 'middle' };
}

export interface ChartAxes {
  /** The tick labels' type and ink (for charts that draw ticks of their own). */
  tick: { fill: string; fontSize: number };
  /**
   * A horizontal axis, captioned under its tick labels. `offset` moves the caption down (more
   * negative) for charts whose tick labels are taller.
   */
  x(
    caption?: string,
    offset?: number,
  ): { stroke: string; tick: ChartAxes['tick']; label?: AxisCaption };
  /**
   * A vertical axis, captioned along its left side, read bottom to top (`offset`: negative moves
   * it left, for charts with a left margin to spare).
   */
  y(
    caption?: string,
    offset?: number,
  ): { stroke: string; tick: ChartAxes['tick']; label?: AxisCaption };
  /** The label of a reference line across the plot ("drift", "form value"), above it. */
  mark(value: string): { value: string; position: 'top'; fill: string; fontSize: number };
  /** A vertical axis of one row per label (input columns, waterfall steps), all shown, none cut. */
  category(labels: readonly string[]): {
    type: 'category';
    stroke: string;
    tick: ChartAxes['tick'];
    interval: 0;
    width: number;
  };
}

export function chartAxes(font: ChartFont, ink: string): ChartAxes {
  const tick = { fill: ink, fontSize: font.tick };
  const caption = (value: string, c: Omit<AxisCaption, 'value' | 'fill' | 'fontSize'>) => ({
    value,
    fill: ink,
    fontSize: font.label,
    ...c,
  });
  return {
    tick,
    x: (value, offset = -12) => ({
      stroke: ink,
      tick,
      ...(value ? { label: caption(value, { position: 'insideBottom', offset }) } : {}),
    }),
    y: (value, offset) => ({
      stroke: ink,
      tick,
      ...(value
        ? {
            label: caption(value, {
              position: 'insideLeft',
              angle: -90,
              style: { textAnchor: 'middle' },
              ...(offset === undefined ? {} : { offset }),
            }),
          }
        : {}),
    }),
    mark: (value) => ({ value, position: 'top', fill: ink, fontSize: font.tick }),
    category: (labels) => ({
      type: 'category',
      stroke: ink,
      tick,
      interval: 0,
      width: categoryAxisWidth(labels, font),
    }),
  };
}
