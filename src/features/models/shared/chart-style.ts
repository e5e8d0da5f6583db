/** Type sizes of the model pages' charts, larger in presentation mode (read from the back). */
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

/**
 * The caption under a horizontal axis, the same on every chart of the model pages (the offset
 * keeps it below the tick labels; charts with taller ticks pass a larger one).
 */
export function axisCaption(value: string, font: ChartFont, fill: string, offset = -12) {
  return { value, position: 'insideBottom' as const, offset, fill, fontSize: font.label };
}
