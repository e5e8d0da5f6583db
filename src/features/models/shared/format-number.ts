/** Number formatting shared by the model pages' text, charts and pure modules (no React). */
export function formatNumber(v: unknown, digits = 4): string {
  if (typeof v !== 'number' || !Number.isFinite(v))
    return v === null || v === undefined ? '—' : String(v);
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  const abs = Math.abs(v);
  return v.toLocaleString('en-US', {
    maximumFractionDigits: abs >= 100 ? 2 : abs >= 1 ? 3 : digits,
  });
}

/** A signed change: "+380.1", "−95.4" (a true minus sign, so columns of them line up). */
export function formatSigned(v: number, digits = 4): string {
  if (!Number.isFinite(v)) return '—';
  const text = formatNumber(Math.abs(v), digits);
  if (text === '0') return '0';
  return `${v < 0 ? '−' : '+'}${text}`;
}

/** A signed change for a label, to three significant digits: "+22", "−3.28", "+0.0273". */
export function formatSignedRounded(v: number): string {
  if (!Number.isFinite(v)) return '—';
  if (v === 0) return '0';
  return `${v < 0 ? '−' : '+'}${formatRounded(Math.abs(v))}`;
}

/** A share as a percentage: 0.8567 -> "85.7%" (fewer decimals for whole numbers: "100%"). */
export function formatPercent(share: number | null | undefined, decimals = 1): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  const p = share * 100;
  return Math.abs(p - Math.round(p)) < 1e-9 ? `${Math.round(p)}%` : `${p.toFixed(decimals)}%`;
}

/** Numbers with exactly `decimals` decimals, thousands separated; anything else as formatNumber. */
function fixedDecimals(decimals: number): (v: unknown) => string {
  return (v) =>
    typeof v === 'number' && Number.isFinite(v)
      ? v.toLocaleString('en-US', {
          minimumFractionDigits: decimals,
          maximumFractionDigits: decimals,
        })
      : formatNumber(v);
}

/**
 * A formatter for one column of numbers, so they line up: the same number of decimals for all
 * (none when every value is whole, 2 from 1 up, 4 below), thousands separated.
 */
export function columnFormatter(values: readonly unknown[]): (v: unknown) => string {
  const nums = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (nums.length === 0) return (v) => formatNumber(v);
  const whole = nums.every((v) => Number.isInteger(v));
  const maxAbs = Math.max(...nums.map(Math.abs));
  const decimals = whole ? 0 : maxAbs >= 1 ? 2 : 4;
  return fixedDecimals(decimals);
}

/**
 * A formatter for a column of errors in the target's units: every value with the decimals that
 * give the column's largest three significant digits ("4,542", "7,009"; "9.9", "12.3"; "0.0340",
 * "0.0500"), so the column lines up without false precision (a house price's typical miss to a
 * thousandth of a dollar).
 */
export function roundedColumnFormatter(values: readonly unknown[]): (v: unknown) => string {
  const nums = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const maxAbs = Math.max(0, ...nums.map(Math.abs));
  const decimals = maxAbs === 0 ? 0 : Math.min(10, Math.max(0, 2 - Math.floor(Math.log10(maxAbs))));
  return fixedDecimals(decimals);
}

/** A number for a sentence: three significant digits ("2.59", "21.3", "1,180"), no false precision. */
export function formatRounded(v: number): string {
  if (!Number.isFinite(v)) return '—';
  const abs = Math.abs(v);
  if (abs >= 1000 || abs === 0) return Math.round(v).toLocaleString('en-US');
  return Number(v.toPrecision(3)).toLocaleString('en-US', { maximumFractionDigits: 10 });
}

/** A duration in seconds: "850 ms", "2.41 s", "3 min 5 s". */
export function formatSeconds(s: number | null | undefined): string {
  if (s === null || s === undefined) return '—';
  if (s < 1) return `${Math.round(s * 1000)} ms`;
  if (s < 60) return `${s.toFixed(2)} s`;
  return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}
