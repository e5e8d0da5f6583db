// AutoML engine benchmark: trains each demo dataset on a fixed seeded 80/20 split and measures
// held-out quality (r2 / balanced accuracy), 90 % interval coverage, home_rentals training time and
// in-process prediction throughput against the targets of docs/DESIGN.md section 6, then the training
// time and r2 of a generated 1M-row table (the shape of bench/pg.ts's PostgreSQL table), then
// issue 15's figures beside scikit-learn (bench/automl-peers.ts).
// Run standalone with `npx tsx bench/automl.ts`; `bench/run.ts` imports runAutomlBench().

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  type CellValue,
  type Dataset,
  type Prediction,
  loadPredictor,
  train,
} from '../server/automl/index';
import { balancedAccuracyScore, r2Score } from '../server/automl/analysis/metrics';
import { Rng } from '../server/automl/prng';
import { DATA_DIR, type SplitData, fixedSplit, loadCsv, toColumns } from './automl-data';

export interface BenchLine {
  name: string;
  value: number;
  unit: string;
  target: string;
  pass: boolean;
}

export interface EvalResult {
  score: number;
  coverage: number | null;
  trainMs: number;
  predictions: Prediction[];
}

/** Trains on the split's train rows and scores the held-out rows. */
export function evaluate(
  split: SplitData,
  target: string,
  using?: Record<string, unknown>,
): EvalResult {
  const t0 = performance.now();
  const artifact = train(split.train, { target, using });
  const trainMs = performance.now() - t0;
  const p = loadPredictor(artifact);
  const cols = toColumns(split.test);
  const preds = p.predictColumns!(cols, split.test.rows.length);
  const tj = split.test.columns.indexOf(target);
  if (artifact.task === 'regression') {
    const truth = split.test.rows.map((r) => Number(r[tj]));
    const pred = preds.map((x) => x.value as number);
    let inside = 0;
    preds.forEach((x, i) => {
      if (truth[i] >= x.lower! && truth[i] <= x.upper!) inside++;
    });
    return {
      score: r2Score(truth, pred),
      coverage: inside / preds.length,
      trainMs,
      predictions: preds,
    };
  }
  const labels = artifact.description.classes!.map(String);
  const truth = split.test.rows.map((r) => labels.indexOf(String(r[tj])));
  const pred = preds.map((x) => labels.indexOf(String(x.value)));
  return {
    score: balancedAccuracyScore(truth, pred, labels.length),
    coverage: null,
    trainMs,
    predictions: preds,
  };
}

interface Case {
  name: string;
  file: string;
  target: string;
  drop: string[];
  metric: 'r2' | 'balanced_accuracy';
  min: number;
}

export const CASES: Case[] = [
  {
    name: 'home_rentals (no initial_price)',
    file: 'home_rentals.csv',
    target: 'rental_price',
    drop: ['initial_price'],
    metric: 'r2',
    min: 0.999,
  },
  {
    name: 'concrete_strength',
    file: 'concrete_strength.csv',
    target: 'concrete_strength',
    drop: ['id'],
    metric: 'r2',
    min: 0.91,
  },
  {
    name: 'bank_customer_churn',
    file: 'bank_customer_churn.csv',
    target: 'Exited',
    drop: [],
    metric: 'balanced_accuracy',
    min: 0.77,
  },
  {
    name: 'telco_customer_churn',
    file: 'telco_customer_churn.csv',
    target: 'Churn',
    drop: [],
    metric: 'balanced_accuracy',
    min: 0.75,
  },
];

function line(name: string, value: number, unit: string, target: string, pass: boolean): BenchLine {
  return { name, value: Math.round(value * 10000) / 10000, unit, target, pass };
}

export async function runAutomlBench(): Promise<BenchLine[]> {
  const out: BenchLine[] = [];
  let inside = 0;
  let total = 0;
  for (const c of CASES) {
    const split = fixedSplit(loadCsv(c.file, c.drop));
    const r = evaluate(split, c.target);
    const pass = r.score >= c.min;
    out.push(line(`automl ${c.name} ${c.metric}`, r.score, c.metric, `>= ${c.min}`, pass));
    if (r.coverage !== null) {
      // With n held-out rows the measured coverage has sampling noise of about sqrt(0.09 / n)
      // (0.021 for concrete's 206 rows), so the pooled line below is the sharper check.
      inside += r.coverage * r.predictions.length;
      total += r.predictions.length;
      const ok = r.coverage >= 0.88 && r.coverage <= 0.92;
      out.push(
        line(`automl ${c.name} 90% interval coverage`, r.coverage, 'fraction', '0.88-0.92', ok),
      );
    }
  }
  const pooled = inside / total;
  out.push(
    line(
      `automl 90% interval coverage, pooled (${total} regression rows)`,
      pooled,
      'fraction',
      '0.88-0.92',
      pooled >= 0.88 && pooled <= 0.92,
    ),
  );

  // Training time: home_rentals on its 80 % training split (4030 rows), median of 3 after a warm-up.
  const hr = fixedSplit(loadCsv('home_rentals.csv', ['initial_price']));
  const times: number[] = [];
  let artifact = train(hr.train, { target: 'rental_price' });
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    artifact = train(hr.train, { target: 'rental_price' });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  out.push(
    line('automl home_rentals train time (median of 3)', times[1], 'ms', '< 1000', times[1] < 1000),
  );

  // Prediction throughput on 200k rows (held-out rows repeated): steady state, two full-size
  // warm-up runs so V8 optimises the hot loops, then the median of 3.
  const N = 200_000;
  const rate = (f: () => void): number => {
    f();
    f();
    const ts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      f();
      ts.push(performance.now() - t0);
    }
    ts.sort((a, b) => a - b);
    return N / (ts[1] / 1000);
  };
  const repeat = (d: Dataset): Dataset => ({
    columns: d.columns,
    rows: Array.from({ length: N }, (_, i) => d.rows[i % d.rows.length]),
  });
  const p = loadPredictor(artifact);
  const big = repeat(hr.test);
  const cols = toColumns(big);
  const objs = big.rows.map((r) => Object.fromEntries(big.columns.map((c, j) => [c, r[j]])));
  const colRate = rate(() => p.predictColumns!(cols, N));
  const objRate = rate(() => p.predict(objs));
  // A classifier, whose predictions carry a probabilities object per row: bank churn.
  const bank = fixedSplit(loadCsv('bank_customer_churn.csv'));
  const bp = loadPredictor(train(bank.train, { target: 'Exited' }));
  const bankCols = toColumns(repeat(bank.test));
  const clsRate = rate(() => bp.predictColumns!(bankCols, N));
  const target = '>= 200000';
  out.push(
    line('automl predict rows/s (regression, columnar)', colRate, 'rows/s', target, colRate >= 2e5),
  );
  out.push(
    line(
      'automl predict rows/s (regression, row objects)',
      objRate,
      'rows/s',
      target,
      objRate >= 2e5,
    ),
  );
  out.push(
    line('automl predict rows/s (classifier, columnar)', clsRate, 'rows/s', target, clsRate >= 2e5),
  );
  // Explanations (TreeSHAP, issue 17): home_rentals' model on 20k held-out rows (repeated).
  const E = 20_000;
  const exCols = toColumns({
    columns: hr.test.columns,
    rows: Array.from({ length: E }, (_, i) => hr.test.rows[i % hr.test.rows.length]),
  });
  const exTimes: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    p.explainColumns!(exCols, E);
    exTimes.push(performance.now() - t0);
  }
  const exRate = E / (exTimes.slice(2).sort((a, b) => a - b)[1] / 1000);
  out.push(
    line(
      'automl explain rows/s (home_rentals, exact TreeSHAP)',
      exRate,
      'rows/s',
      '>= 10000',
      exRate >= 10_000,
    ),
  );
  // Large-table training (~30 s); AUTOML_BENCH_LARGE=0 skips it.
  if (process.env.AUTOML_BENCH_LARGE !== '0') out.push(...largeTableBench());
  // Issue 15's figures beside scikit-learn (optional) and the issue's reference figures;
  // AUTOML_BENCH_PEERS=0 skips them.
  if (process.env.AUTOML_BENCH_PEERS !== '0') {
    out.push(...(await (await import('./automl-peers')).runPeerBench()));
  }
  return out;
}

/**
 * The 1M-row table of bench/pg.ts, generated here (seeded) instead of read from PostgreSQL:
 * y = 3a + 2b + effect(cat) + 0.05c + noise (sd 1); d, flag and day are noise. The noise is under
 * 1 % of the variance, so the best possible r2 is about 0.9927.
 */
export function syntheticTable(n: number, seed = 7): Dataset {
  const rng = new Rng(seed);
  const cats = ['red', 'green', 'blue', 'black', 'white'];
  const effect = [5, -3, 0, 8, -6];
  const day0 = Date.UTC(2020, 0, 1);
  const days = Array.from({ length: 730 }, (_, i) =>
    new Date(day0 + i * 86_400_000).toISOString().slice(0, 10),
  );
  const rows: CellValue[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = rng.next() * 10;
    const b = rng.next() * 10;
    const c = Math.round(rng.next() * 100);
    const k = (i + 1) % 5;
    const d = rng.next();
    const flag = rng.next() < 0.3;
    const u = Math.max(rng.next(), 1e-12);
    const noise = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
    const y = 3 * a + 2 * b + effect[k] + 0.05 * c + noise;
    rows[i] = [a, b, c, cats[k], d, flag, days[(i + 1) % 730], y];
  }
  return { columns: ['a', 'b', 'c', 'cat', 'd', 'flag', 'day', 'y'], rows };
}

/** Trains on the 1M-row synthetic table; r2 on 50k fresh rows of the same distribution. */
export function largeTableBench(rows = 1_000_000): BenchLine[] {
  const data = syntheticTable(rows);
  const t0 = performance.now();
  const artifact = train(data, { target: 'y' });
  const seconds = (performance.now() - t0) / 1000;
  data.rows.length = 0;
  const test = syntheticTable(50_000, 99);
  const preds = loadPredictor(artifact).predictColumns!(toColumns(test), test.rows.length);
  const r2 = r2Score(
    test.rows.map((r) => r[7] as number),
    preds.map((p) => p.value as number),
  );
  const k = `${rows / 1000}k`.replace('1000k', '1M');
  return [
    line(`automl ${k}-row synthetic training time`, seconds, 's', '< 60', seconds < 60),
    line(`automl ${k}-row synthetic r2 (held-out rows)`, r2, 'r2', '>= 0.99', r2 >= 0.99),
  ];
}

async function main(): Promise<void> {
  if (!existsSync(DATA_DIR)) {
    console.error(`demo data not found at ${DATA_DIR}`);
    process.exit(1);
  }
  const lines = await runAutomlBench();
  const w = Math.max(...lines.map((l) => l.name.length));
  for (const l of lines) {
    console.log(
      `${l.pass ? 'PASS' : 'FAIL'}  ${l.name.padEnd(w)}  ${String(l.value).padStart(12)} ${l.unit.padEnd(18)} target ${l.target}`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void main();
}
