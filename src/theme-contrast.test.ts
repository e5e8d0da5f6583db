// @vitest-environment node
/**
 * The themes' text colours against the surfaces they sit on, hover included, in both themes: WCAG
 * AA's 4.5:1 for body text. axe only sees the state a page is in when it runs (a hovered "Drop
 * model" failed only when the pointer happened to rest on it), so the pairs are checked here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const css = readFileSync(path.join(import.meta.dirname, 'styles.css'), 'utf8');

function tokens(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries(
    [...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6});/gi)].map((m) => [m[1], m[2]]),
  );
}

/** WCAG 2 relative luminance and contrast ratio of two #rrggbb colours. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

// Text tokens and every surface they are drawn on (buttons turn --hover under the pointer).
const PAIRS: [string, string[]][] = [
  ['text', ['bg', 'panel', 'hover']],
  ['danger', ['bg', 'panel', 'hover']],
  ['muted', ['bg', 'panel']],
  ['muted-on-fill', ['hover']],
];

const light = tokens(':root');
const themes = { light, dark: { ...light, ...tokens(":root[data-theme='dark']") } };

describe.each(Object.entries(themes))('the %s theme', (_name, t) => {
  it.each(PAIRS)('--%s is readable on %j', (fg, surfaces) => {
    expect(t[fg], `--${fg}`).toMatch(/^#/);
    for (const bg of surfaces)
      expect(contrast(t[fg], t[bg]), `--${fg} on --${bg}`).toBeGreaterThanOrEqual(4.5);
  });
});

it('measures contrast as WCAG does', () => {
  expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
  expect(contrast('#dc2626', '#f3f4f6')).toBeLessThan(4.5); // the hovered "Drop model" of old
});
