// Datasets for the AutoML bench and the quality tests: the demo CSVs and their fixed held-out
// split; seeded tables for issue 15's figures (a messy mixed table at any size, a heteroscedastic
// table with quiet and noisy regions, short ticket texts whose words carry the label);
// scikit-learn's toy datasets and its HistGradientBoosting fit on the same rows (both through
// bench/sklearn_peer.py, when Debian's python3-sklearn is installed).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import type { CellValue, Dataset } from '../server/automl/index';
import { Rng, holdoutSplit } from '../server/automl/prng';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The demo CSVs shipped with the repo; AUTOML_DATA_DIR overrides (e.g. for other copies). */
export const DATA_DIR = process.env.AUTOML_DATA_DIR ?? join(ROOT, 'data', 'demo');

export function loadCsv(file: string, drop: string[] = []): Dataset {
  const text = readFileSync(join(DATA_DIR, file), 'utf8');
  // dynamicTyping mimics what the SQL engine hands over: numbers as numbers, other text as strings.
  const parsed = Papa.parse<CellValue[]>(text.trim(), {
    dynamicTyping: true,
    skipEmptyLines: true,
  });
  const [header, ...rows] = parsed.data;
  const keep = header.map((_, j) => j).filter((j) => !drop.includes(String(header[j])));
  return {
    columns: keep.map((j) => String(header[j])),
    rows: rows.map((r) => keep.map((j) => (r[j] === undefined ? null : r[j]))),
  };
}

export interface SplitData {
  train: Dataset;
  test: Dataset;
}

/** The fixed held-out split (seed 1234, 80/20) used by the bench and the dataset-quality tests. */
export function fixedSplit(d: Dataset): SplitData {
  const { train: tr, test: te } = holdoutSplit(d.rows.length);
  return {
    train: { columns: d.columns, rows: Array.from(tr, (i) => d.rows[i]) },
    test: { columns: d.columns, rows: Array.from(te, (i) => d.rows[i]) },
  };
}

export function toColumns(d: Dataset): Record<string, CellValue[]> {
  const out: Record<string, CellValue[]> = {};
  d.columns.forEach((c, j) => (out[c] = d.rows.map((r) => r[j])));
  return out;
}

export const PYTHON = '/usr/bin/python3';
export const PEER_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'sklearn_peer.py');

function gauss(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** Whether Debian's python3-sklearn is installed (the bench's reference peer). */
export function sklearnAvailable(): boolean {
  const r = spawnSync(PYTHON, ['-c', 'import sklearn'], { encoding: 'utf8' });
  return r.status === 0;
}

/** A scikit-learn toy dataset ('digits', 'wine', 'breast_cancer', 'iris', 'diabetes'). */
export function sklearnToy(name: string): Dataset {
  const r = spawnSync(PYTHON, [PEER_SCRIPT, 'dump', name], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`sklearn_peer.py dump ${name}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Dataset;
}

const REGIONS = ['north', 'south', 'east', 'west', 'central', 'coast', 'hills', 'valley'];
const KINDS = ['flat', 'house', 'studio', 'loft'];

/**
 * A messy regression table: 6 numbers (one log-normal, one with 8 % missing values), 2
 * categoricals and a flag; the target mixes a nonlinear effect, an interaction, category effects
 * and heavy-tailed noise whose size grows with the `kind` and one of the numbers.
 */
export function messyTable(n: number, seed = 21): Dataset {
  const rng = new Rng(seed);
  const regionEffect = REGIONS.map(() => gauss(rng) * 2);
  const rows: CellValue[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = rng.next() * 10;
    const b = gauss(rng);
    const c = Math.exp(gauss(rng) * 0.8);
    const d = rng.next();
    const e = rng.int(50);
    const f = rng.next() < 0.08 ? null : rng.next() * 4;
    const region = rng.int(REGIONS.length);
    const kind = rng.int(KINDS.length);
    const flag = rng.next() < 0.3;
    const noiseScale = 0.3 + kind * 0.6 + d;
    // Heavy tails: a t-like mix (1 row in 20 has 4x noise).
    const noise = gauss(rng) * noiseScale * (rng.next() < 0.05 ? 4 : 1);
    const y =
      3 * Math.sin(a) +
      2 * b * (flag ? 1 : -0.5) +
      Math.log(c) * 1.5 +
      regionEffect[region] +
      (f === null ? 0 : f * f * 0.3) +
      0.02 * e +
      noise;
    rows[i] = [a, b, c, d, e, f, REGIONS[region], KINDS[kind], flag, y];
  }
  return { columns: ['a', 'b', 'c', 'd', 'e', 'f', 'region', 'kind', 'flag', 'y'], rows };
}

/** y = 2x + group effect, noise sd 0.2 in 'quiet' rows and 3 in 'noisy' rows (2k rows). */
export function heteroTable(n = 2000, seed = 22): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = rng.next() * 10;
    const zone = rng.next() < 0.5 ? 'quiet' : 'noisy';
    const z = rng.next();
    const sd = zone === 'quiet' ? 0.2 : 3;
    rows.push([x, zone, z, 2 * x + (zone === 'noisy' ? 1 : 0) + sd * gauss(rng)]);
  }
  return { columns: ['x', 'zone', 'z', 'y'], rows };
}

const TOPICS: Record<string, string[]> = {
  billing: ['invoice', 'charged', 'refund', 'payment', 'bill', 'price', 'twice', 'card'],
  technical: ['error', 'crash', 'login', 'app', 'screen', 'update', 'bug', 'loading'],
  shipping: ['delivery', 'package', 'arrived', 'tracking', 'courier', 'late', 'parcel', 'box'],
  account: ['password', 'email', 'profile', 'username', 'delete', 'settings', 'locked', 'name'],
};
const FILLER = [
  'please',
  'help',
  'my',
  'the',
  'is',
  'not',
  'with',
  'urgent',
  'issue',
  'problem',
  'again',
  'today',
  'since',
  'yesterday',
  'order',
  'still',
  'cannot',
  'why',
  'need',
  'customer',
];

/**
 * Support tickets: a short title whose words carry the topic (4 topics; each title has 1-2 topic
 * words, one word in six borrowed from another topic, the rest filler), the customer's plan and
 * tenure (weak signals), and the topic as the label.
 */
export function ticketTable(n = 4000, seed = 23): Dataset {
  const rng = new Rng(seed);
  const topics = Object.keys(TOPICS);
  const plans = ['free', 'basic', 'pro'];
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const t = rng.int(topics.length);
    const words: string[] = [];
    const len = 5 + rng.int(6);
    const signal = 1 + rng.int(2);
    for (let w = 0; w < len; w++) {
      if (w < signal) {
        const own = rng.next() < 0.84;
        const topic = own ? topics[t] : topics[rng.int(topics.length)];
        words.push(TOPICS[topic][rng.int(8)]);
      } else words.push(FILLER[rng.int(FILLER.length)]);
    }
    // Shuffle so the topic words are not always first.
    for (let w = words.length - 1; w > 0; w--) {
      const j = rng.int(w + 1);
      [words[w], words[j]] = [words[j], words[w]];
    }
    const plan = plans[(t + rng.int(3)) % 3];
    rows.push([words.join(' '), plan, rng.int(60) + (t === 1 ? 10 : 0), topics[t]]);
  }
  return { columns: ['title', 'plan', 'tenure_months', 'topic'], rows };
}

export interface PeerResult {
  model: string;
  fit_s: number;
  /** CPU seconds of the fit (less sensitive than fit_s to other work on the machine). */
  fit_cpu_s?: number;
  r2?: number;
  balanced_accuracy?: number;
  accuracy?: number;
  log_loss?: number;
  iterations?: number;
  predict_rows_s?: number;
}

/**
 * The same split for scikit-learn: numbers as they are (NaN = missing), booleans 0/1, other
 * columns as category codes (most frequent first, at most 250 categories; HistGradientBoosting's
 * categorical support), the target as numbers or class codes.
 */
export function runPeer(s: SplitData, target: string, task: string, text?: string): PeerResult {
  const all = [...s.train.rows, ...s.test.rows];
  const tj = s.train.columns.indexOf(target);
  const inputs = s.train.columns.map((_, j) => j).filter((j) => j !== tj);
  const n = all.length;
  const p = inputs.length;
  const x = new Float64Array(n * p);
  const categorical: number[] = [];
  inputs.forEach((j, c) => {
    const cells = all.map((r) => r[j]);
    const numeric = cells.every(
      (v) => v === null || typeof v === 'number' || typeof v === 'boolean',
    );
    if (numeric) {
      cells.forEach((v, i) => (x[i * p + c] = v === null ? NaN : Number(v)));
      return;
    }
    categorical.push(c);
    const freq = new Map<string, number>();
    for (const v of cells) if (v !== null) freq.set(String(v), (freq.get(String(v)) ?? 0) + 1);
    const keys = [...freq.keys()].sort((a, b) => freq.get(b)! - freq.get(a)!).slice(0, 250);
    const code = new Map(keys.map((k, i) => [k, i]));
    cells.forEach((v, i) => (x[i * p + c] = v === null ? NaN : (code.get(String(v)) ?? NaN)));
  });
  let labels: string[] = [];
  if (task !== 'regression') labels = [...new Set(all.map((r) => String(r[tj])))].sort();
  const y = Float64Array.from(all, (r) =>
    task === 'regression' ? Number(r[tj]) : labels.indexOf(String(r[tj])),
  );
  const dir = mkdtempSync(join(tmpdir(), 'automl-peer-'));
  try {
    writeFileSync(join(dir, 'x.bin'), Buffer.from(x.buffer));
    writeFileSync(join(dir, 'y.bin'), Buffer.from(y.buffer));
    const job: Record<string, unknown> = {
      task,
      x: join(dir, 'x.bin'),
      y: join(dir, 'y.bin'),
      n,
      p,
      train_n: s.train.rows.length,
      categorical,
      seed: 42,
    };
    if (text) {
      const k = s.train.columns.indexOf(text);
      writeFileSync(join(dir, 'text.json'), JSON.stringify(all.map((r) => String(r[k] ?? ''))));
      job.text = join(dir, 'text.json');
    }
    writeFileSync(join(dir, 'job.json'), JSON.stringify(job));
    // One OpenMP thread unless PEER_THREADS says more: with other work on the 2 shared cores,
    // OpenMP's spinning threads made HGB 20-30x slower and the ratio meaningless (README has the
    // figures beside HGB on both cores of an idle machine).
    const r = spawnSync(PYTHON, [PEER_SCRIPT, 'fit', join(dir, 'job.json')], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
      env: { ...process.env, OMP_NUM_THREADS: process.env.PEER_THREADS ?? '1' },
    });
    if (r.status !== 0) throw new Error(`sklearn_peer.py fit: ${r.stderr.slice(-500)}`);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as PeerResult;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
