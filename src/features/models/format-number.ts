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

/** A share as a percentage: 0.8567 -> "85.7%" (fewer decimals for whole numbers: "100%"). */
export function formatPercent(share: number | null | undefined, decimals = 1): string {
  if (share === null || share === undefined || !Number.isFinite(share)) return '—';
  const p = share * 100;
  return Math.abs(p - Math.round(p)) < 1e-9 ? `${Math.round(p)}%` : `${p.toFixed(decimals)}%`;
}
