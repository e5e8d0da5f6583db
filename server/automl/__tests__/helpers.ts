// Synthetic datasets for the engine's tests: small, seeded, with known structure.
import type { CellValue, Dataset } from '../index';
import { Rng } from '../prng';

/** Standard normal via Box-Muller on the seeded PRNG. */
export function gauss(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** y = 3x + 2 * [color = red] + noise, with an id column and a constant column. */
export function linearish(n: number, seed = 1, noise = 1): Dataset {
  const rng = new Rng(seed);
  const colors = ['red', 'green', 'blue'];
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = rng.next() * 10;
    const color = colors[rng.int(3)];
    rows.push([i + 1, x, color, 'same', 3 * x + (color === 'red' ? 2 : 0) + noise * gauss(rng)]);
  }
  return { columns: ['id', 'x', 'color', 'const', 'y'], rows };
}

/** XOR-like labels: positive when x1 and x2 have the same sign ('Yes'/'No'). */
export function xor(n: number, seed = 2): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const a = rng.next() * 2 - 1;
    const b = rng.next() * 2 - 1;
    rows.push([a, b, a * b > 0 ? 'Yes' : 'No']);
  }
  return { columns: ['a', 'b', 'label'], rows };
}

export function splitDataset(d: Dataset, nTrain: number): { train: Dataset; test: Dataset } {
  return {
    train: { columns: d.columns, rows: d.rows.slice(0, nTrain) },
    test: { columns: d.columns, rows: d.rows.slice(nTrain) },
  };
}

export function toObjects(d: Dataset): Record<string, unknown>[] {
  return d.rows.map((r) => Object.fromEntries(d.columns.map((c, j) => [c, r[j]])));
}

/**
 * Twelve numbers and a category: enough rows x features that a multiclass table's histograms are
 * built in feature blocks on the thread pool.
 */
export function wide(
  n: number,
  seed: number,
  kind: 'regression' | 'binary' | 'multiclass',
): Dataset {
  const rng = new Rng(seed);
  const F = 12;
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = Array.from({ length: F }, () => rng.next() * 10);
    const grade = ['a', 'b', 'c', 'd', 'e'][rng.int(5)];
    const z = x[0] + 0.5 * x[3] * (x[7] > 5 ? 1 : -1) + (grade === 'c' ? 2 : 0) + gauss(rng);
    const target =
      kind === 'regression'
        ? z
        : kind === 'binary'
          ? z > 5
          : ['lo', 'mid', 'hi'][z < 3 ? 0 : z < 7 ? 1 : 2];
    rows.push([...x.map((v, j) => (i % (11 + j) === 0 ? null : v)), grade, target]);
  }
  return {
    columns: [...Array.from({ length: F }, (_, j) => `x${j}`), 'grade', 'target'],
    rows,
  };
}
