/** Round axis bounds: a step of 1, 2 or 5 times a power of ten, and a domain rounded out to it. */
export function niceStep(span: number, ticks = 8): number {
  const raw = span / ticks;
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const p = 10 ** Math.floor(Math.log10(raw));
  const m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 2.5 ? 2.5 : m <= 5 ? 5 : 10) * p;
}

/** [lo, hi] rounded outward to round numbers (about `ticks` steps). */
export function niceDomain(lo: number, hi: number, ticks = 8): [number, number] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (lo === hi) return [lo - 1, hi + 1];
  const step = niceStep(hi - lo, ticks);
  return [Math.floor(lo / step) * step, Math.ceil(hi / step) * step];
}

/** Evenly spaced round ticks covering [lo, hi] (about `count` of them), for an explicit axis. */
export function niceTicks([lo, hi]: readonly [number, number], count = 5): number[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi) || hi <= lo) return [lo];
  const step = niceStep(hi - lo, count + 1);
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    out.push(Number(v.toPrecision(12)));
  return out;
}
