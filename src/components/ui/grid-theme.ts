/**
 * AG Grid themes for the app's light and dark themes (theming API, no CSS imports), shared by every
 * grid: the results grid uses them as they are; framed grids inside pages (the model page) add a
 * border and a little more height with `framed`.
 */
import { colorSchemeDark, colorSchemeLight, themeQuartz } from 'ag-grid-community';

const common = {
  fontFamily: 'inherit',
  fontSize: 12.5,
  dataFontSize: 12.5,
  headerFontWeight: 600,
  spacing: 5,
  rowHeight: 28,
  headerHeight: 32,
  wrapperBorder: false,
  wrapperBorderRadius: 0,
  cellHorizontalPadding: 10,
};

export const lightGridTheme = themeQuartz.withPart(colorSchemeLight).withParams({
  ...common,
  accentColor: '#2563eb',
  backgroundColor: '#ffffff',
  foregroundColor: '#1f2937',
  headerBackgroundColor: '#f6f7f9',
  oddRowBackgroundColor: '#fbfbfc',
  borderColor: '#e5e7eb',
});

export const darkGridTheme = themeQuartz.withPart(colorSchemeDark).withParams({
  ...common,
  accentColor: '#7aa2f7',
  backgroundColor: '#141821',
  foregroundColor: '#d4d8e2',
  headerBackgroundColor: '#1b2030',
  oddRowBackgroundColor: '#171b26',
  borderColor: '#2a3142',
});

/** Presentation mode: type that reads from the back of a room. */
export const LARGE_GRID_FONT_PX = 15.5;
const largeParams = {
  fontSize: LARGE_GRID_FONT_PX,
  dataFontSize: LARGE_GRID_FONT_PX,
  rowHeight: 38,
  headerHeight: 42,
  cellHorizontalPadding: 14,
};
export const largeGridTheme = {
  light: lightGridTheme.withParams(largeParams),
  dark: darkGridTheme.withParams(largeParams),
};

/**
 * A wide screen (1920x1080) outside presentation mode: 13 px reads small there, so the grid and
 * the editor step up (WIDE_GRID_FONT_PX, the editor's 15 px).
 */
export const WIDE_SCREEN = '(min-width: 1800px) and (min-height: 1000px)';
export const WIDE_GRID_FONT_PX = 14.5;
const wideParams = {
  fontSize: WIDE_GRID_FONT_PX,
  dataFontSize: WIDE_GRID_FONT_PX,
  rowHeight: 34,
  headerHeight: 38,
};
export const wideGridTheme = {
  light: lightGridTheme.withParams(wideParams),
  dark: darkGridTheme.withParams(wideParams),
};

const framedParams = { rowHeight: 30, wrapperBorder: true, wrapperBorderRadius: 8 };
export const framed = {
  light: lightGridTheme.withParams(framedParams),
  dark: darkGridTheme.withParams(framedParams),
};

/** Chart colours that match the grid themes. */
export const CHART_COLORS = {
  light: {
    accent: '#2563eb',
    band: '#93b4f5',
    grid: '#e5e7eb',
    text: '#4b5563',
    muted: '#9ca3af',
    series: ['#2563eb', '#d97706', '#16a34a', '#dc2626', '#7c3aed', '#0891b2'],
    /** Pushes up / down in explanations: blue and orange, told apart without red-green vision. */
    up: '#d9480f',
    down: '#1c7ed6',
    neutral: '#6b7280',
  },
  dark: {
    accent: '#7aa2f7',
    band: '#3b4f80',
    grid: '#2a3142',
    text: '#9aa3b5',
    muted: '#5f6b82',
    series: ['#7aa2f7', '#fbbf24', '#4ade80', '#f87171', '#c4a7ff', '#67e8f9'],
    up: '#ff922b',
    down: '#4dabf7',
    neutral: '#9aa3b5',
  },
};
