/**
 * Sizes a recharts chart: to its box on screen (ResponsiveContainer), and to a fixed width that
 * fits A4 and Letter paper while printing, since print does not give the chart a chance to
 * re-measure itself (print CSS scales anything wider down, as a fallback).
 */
import { cloneElement, type ReactElement } from 'react';
import { ResponsiveContainer } from 'recharts';
import { usePrinting } from '../../../../lib/use-printing';

/** CSS pixels: A4/Letter at 96 dpi minus ~12 mm margins and a card's padding. */
const PRINT_CHART_WIDTH = 640;

export function ChartBox({
  height,
  children,
}: {
  height: number;
  children: ReactElement<{ width?: number; height?: number }>;
}) {
  const printing = usePrinting();
  if (printing) return cloneElement(children, { width: PRINT_CHART_WIDTH, height });
  return (
    <ResponsiveContainer width="100%" height="100%">
      {children}
    </ResponsiveContainer>
  );
}

/** The chart colours to draw with: the light ones on paper, whatever the screen's theme. */
export function usePaperTheme(theme: 'light' | 'dark'): 'light' | 'dark' {
  return usePrinting() ? 'light' : theme;
}
