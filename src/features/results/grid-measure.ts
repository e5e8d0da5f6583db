/** The grid's sizes in the browser: text measured in its fonts, spare width spread over columns. */
import type { GridApi } from 'ag-grid-community';
import { LARGE_GRID_FONT_PX, WIDE_GRID_FONT_PX } from '../../components/ui/grid-theme';
import { MAX_COLUMN_PX, spreadWidth, type MeasureText } from './column-layout';
import type { Row } from './grid-columns';

/**
 * Spreads the grid's spare width over its columns (never shrinks them): a narrow header is not cut
 * while the grid has room to its right. No column grows past MAX_COLUMN_PX this way, so a long
 * text stays capped (spreadWidth).
 */
export function fillSpareWidth(api: GridApi<Row>, wrapper: HTMLElement | null) {
  if (!wrapper) return;
  const columns = api.getAllDisplayedColumns();
  const pinned = columns.filter((c) => c.getPinned()).reduce((n, c) => n + c.getActualWidth(), 0);
  const centre = columns.filter((c) => !c.getPinned());
  // Room for a vertical scroll bar and the borders, so filling never adds a horizontal one.
  const room = wrapper.clientWidth - pinned - 20;
  const before = centre.map((c) => c.getActualWidth());
  const after = spreadWidth(before, room, MAX_COLUMN_PX);
  if (after.every((w, i) => w === before[i])) return;
  api.setColumnWidths(centre.map((c, i) => ({ key: c, newWidth: after[i] })));
}

/** Measures text with the grid's own fonts (a canvas); undefined where there is no canvas. */
export function canvasMeasure(
  el: Element | null,
  large: boolean,
  wide: boolean,
): MeasureText | undefined {
  const ctx = document.createElement('canvas').getContext?.('2d');
  if (!ctx || !el) return undefined;
  const style = getComputedStyle(el);
  const family = style.fontFamily || 'sans-serif';
  const mono = style.getPropertyValue('--mono') || 'monospace';
  const px = large ? LARGE_GRID_FONT_PX : wide ? WIDE_GRID_FONT_PX : 12.5;
  const fonts = {
    header: `600 ${px}px ${family}`,
    json: `${px - 1}px ${mono}`,
    other: `${px}px ${family}`,
  };
  const cache = new Map<string, number>();
  return (text, kind) => {
    const font = kind === 'header' ? fonts.header : kind === 'json' ? fonts.json : fonts.other;
    const key = `${font}|${text}`;
    let w = cache.get(key);
    if (w === undefined) {
      ctx.font = font;
      w = ctx.measureText(text).width;
      cache.set(key, w);
    }
    return w;
  };
}
