/** AG Grid themes for the light and dark app themes (theming API, no CSS imports). */
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
