// Synthetic series for the time-series tests: seeded, with known trend, season and noise.
import type { CellValue, Dataset } from '../../api';
import { gauss } from '../../__tests__/helpers';
import { AutoMLError } from '../../errors';
import { Rng } from '../../prng';
import type { StepResiduals } from '../calibration';

const pad = (x: number) => String(x).padStart(2, '0');

/** 'YYYY-MM-01' of month i after January 2010. */
export function monthStart(i: number): string {
  return `${2010 + Math.floor(i / 12)}-${pad((i % 12) + 1)}-01`;
}

/**
 * Monthly series per group (`store`, `sales`): level, trend and a yearly season that differ per
 * group, plus AR(1) noise. `n` rows per group, dates from January 2010.
 */
export function monthlySales(groups: string[], n: number, seed = 1, noise = 1): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  groups.forEach((g, j) => {
    const level = 100 + 50 * j;
    const trend = 0.3 + 0.2 * j;
    const amp = 10 + 5 * j;
    let e = 0;
    for (let i = 0; i < n; i++) {
      e = 0.5 * e + noise * gauss(rng);
      const y = level + trend * i + amp * Math.sin((2 * Math.PI * (i % 12)) / 12 + j) + e;
      rows.push([monthStart(i), g, Math.round(y * 100) / 100]);
    }
  });
  return { columns: ['month', 'store', 'sales'], rows };
}

/** Columns of a dataset keyed by name (what `forecast` takes). */
export function columnsOf(d: Dataset): Record<string, CellValue[]> {
  const out: Record<string, CellValue[]> = {};
  d.columns.forEach((c, j) => (out[c] = d.rows.map((r) => r[j])));
  return out;
}

/** The AutoMLError `f` throws (anything else, or nothing, fails the test). */
export function errorOf(f: () => unknown): AutoMLError {
  try {
    f();
  } catch (e) {
    if (e instanceof AutoMLError) return e;
    throw e;
  }
  throw new Error('expected an AutoMLError');
}

/** Rolling-origin residuals of `H` steps, none yet (tests push them as training lays them out). */
export function emptyResiduals(H: number): StepResiduals {
  const res: StepResiduals = { r: [], age: [], main: [], series: [], fold: [] };
  for (let k = 0; k < H; k++) {
    res.r.push([]);
    res.age.push([]);
    res.main.push([]);
    res.series.push([]);
    res.fold.push([]);
  }
  return res;
}
