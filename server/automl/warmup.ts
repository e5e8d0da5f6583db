// A warm-up for a thread that will train models: two small trainings (a regression and a
// classifier) on a generated table, so V8 has compiled the engine's loops, and the pool's model
// thread has loaded, before a user's first training. A fresh training worker ran a 30k-row
// table's first training in 0.70 s and its later ones in 0.40 s.

import type { CellValue } from './api';
import { train } from './pipeline/train';
import { Rng } from './prng';

/**
 * Rows of the warm-up table: past the sizes where the training takes its large-table paths
 * (a shared analysis from 10k rows, a smaller validation share from 20k), numbers with missing
 * values, a category, a flag, a numeric target and a label.
 */
const WARMUP_ROWS = 24_000;

function warmupTable(): { columns: string[]; rows: CellValue[][] } {
  const rng = new Rng(7);
  const kinds = ['a', 'b', 'c', 'd', 'e'];
  const rows: CellValue[][] = [];
  for (let i = 0; i < WARMUP_ROWS; i++) {
    const x1 = rng.next() * 10;
    const x2 = rng.next() < 0.05 ? null : rng.next() * 4 - 2;
    const x3 = Math.floor(rng.next() * 30);
    const kind = kinds[Math.floor(rng.next() * kinds.length)];
    const flag = rng.next() < 0.4;
    const y = Math.sin(x1) * 3 + (x2 ?? 0) * (flag ? 1 : -1) + kinds.indexOf(kind) + rng.next();
    rows.push([x1, x2, x3, kind, flag, y, y > 2 ? 'high' : 'low']);
  }
  return { columns: ['x1', 'x2', 'x3', 'kind', 'flag', 'y', 'label'], rows };
}

/** Trains and discards a regression and a classifier on the warm-up table. */
export function warmUp(): void {
  const table = warmupTable();
  train(table, { target: 'y', using: { ignore_columns: ['label'] } });
  train(table, { target: 'label', using: { ignore_columns: ['y'] } });
}
