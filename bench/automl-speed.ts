// Training time of the engine beside scikit-learn's HistGradientBoosting (early stopping; one
// OpenMP thread unless PEER_THREADS says more) on the same rows, as issue 15 item 3 measures it:
// each case alternates engine and HGB runs and reports the medians (the machine is shared and
// noisy, single runs mislead). The engine trains from columnar data, as the server's training
// worker receives it (the columns are built while rows stream in from SQL, as HGB's caller builds
// its numpy array before fit()), on AUTOML_THREADS / `--threads` threads (default 2).
// Standalone: `npx tsx bench/automl-speed.ts [messy30k] [messy200k] [digits] [--reps 3]
// [--threads 1]`.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ColumnarBuilder } from '../server/models/training-columns';
import {
  type ColumnarData,
  type Dataset,
  type ModelArtifact,
  loadPredictor,
  trainColumns,
} from '../server/automl/index';
import {
  type PeerResult,
  type SplitData,
  fixedSplit,
  messyTable,
  runPeer,
  sklearnAvailable,
  sklearnToy,
  toColumns,
} from './automl-data';
import { progress } from './types';

/** A dataset as the training worker receives it (typed columns, text dictionary-encoded). */
export function columnarOf(d: Dataset): ColumnarData {
  const b = new ColumnarBuilder(d.columns);
  for (const r of d.rows) b.push(r);
  return b.finish();
}

export interface SpeedCase {
  name: string;
  split: SplitData;
  target: string;
  task: 'regression' | 'binary' | 'multiclass';
}

export function speedCase(name: string): SpeedCase {
  const m = /^messy(\d+)k$/.exec(name);
  if (m) {
    const n = Number(m[1]) * 1000;
    return {
      name,
      split: fixedSplit(messyTable(Math.round(n / 0.8))),
      target: 'y',
      task: 'regression',
    };
  }
  const split = fixedSplit(sklearnToy(name));
  const labels = new Set(split.train.rows.map((r) => r[r.length - 1]));
  const task = name === 'diabetes' ? 'regression' : labels.size > 2 ? 'multiclass' : 'binary';
  return { name, split, target: 'target', task };
}

export interface SpeedResult {
  /** Median seconds over the repeats. */
  engine: number;
  peer: number | null;
  ratio: number | null;
  engineRuns: number[];
  peerRuns: number[];
  /** Medians of CPU seconds (the engine's process, HGB's fit), less sensitive to other load. */
  engineCpu: number;
  /** Median CPU seconds of the training thread alone (see mainThreadCpu). */
  engineMainCpu: number;
  peerCpu: number | null;
  /**
   * Median CPU seconds per training phase (from the progress callback): profile (types, target),
   * encode, candidates, analysis (scales, calibration, importance, missing inputs), refit/finish.
   */
  phases: number[];
  /** The last engine artifact and HGB result (quality figures are read from them). */
  artifact: ModelArtifact;
  peerResult: PeerResult | null;
}

/**
 * CPU seconds of this (the training) thread alone, from Linux's per-thread counters (NaN
 * elsewhere): with a second thread working alongside, the engine's critical path on an idle
 * machine is about this, however busy the shared machine is.
 */
export function mainThreadCpu(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of stat) in clock ticks of 1/100 s.
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** Alternates `reps` engine trainings (columnar input) and HGB fits; medians of each. */
export function timeCase(
  c: SpeedCase,
  reps: number,
  using?: Record<string, unknown>,
  withPeer = sklearnAvailable(),
  threads?: number,
): SpeedResult {
  const data = columnarOf(c.split.train);
  const engineRuns: number[] = [];
  const peerRuns: number[] = [];
  const engineCpu: number[] = [];
  const engineMainCpu: number[] = [];
  const peerCpu: number[] = [];
  const phaseRuns: number[][] = [];
  let artifact: ModelArtifact | null = null;
  let peerResult: PeerResult | null = null;
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const m0 = mainThreadCpu();
    // Phase boundaries in CPU seconds (less disturbed by other work on the machine than wall time).
    const cpuNow = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    };
    const marks: number[] = [];
    const onProgress = () => marks.push(cpuNow());
    artifact = trainColumns(data, { target: c.target, using, onProgress, threads });
    const c1 = process.cpuUsage(c0);
    engineMainCpu.push(mainThreadCpu() - m0);
    const t1 = performance.now();
    engineRuns.push((t1 - t0) / 1000);
    marks.push(cpuNow());
    phaseRuns.push(marks.slice(1).map((m, j) => m - marks[j]));
    engineCpu.push((c1.user + c1.system) / 1e6);
    if (withPeer) {
      peerResult = runPeer(c.split, c.target, c.task);
      peerRuns.push(peerResult.fit_s);
      peerCpu.push(peerResult.fit_cpu_s ?? NaN);
    }
  }
  const engine = median(engineRuns);
  const peer = withPeer ? median(peerRuns) : null;
  return {
    engine,
    peer,
    ratio: peer ? engine / peer : null,
    engineRuns,
    peerRuns,
    engineCpu: median(engineCpu),
    engineMainCpu: median(engineMainCpu),
    phases: phaseRuns[0].map((_, j) => median(phaseRuns.map((p) => p[j]))),
    peerCpu: withPeer ? median(peerCpu) : null,
    artifact: artifact!,
    peerResult,
  };
}

/** Held-out r2 (regression) or accuracy (classifiers) of an artifact on the case's test rows. */
export function heldOut(c: SpeedCase, a: ModelArtifact): number {
  const test = c.split.test;
  const preds = loadPredictor(a).predictColumns!(toColumns(test), test.rows.length);
  const tj = test.columns.indexOf(c.target);
  if (a.task !== 'regression') {
    let ok = 0;
    preds.forEach((p, i) => (ok += String(p.value) === String(test.rows[i][tj]) ? 1 : 0));
    return ok / preds.length;
  }
  const truth = test.rows.map((r) => Number(r[tj]));
  const mean = truth.reduce((s, v) => s + v, 0) / truth.length;
  let ssr = 0;
  let sst = 0;
  preds.forEach((p, i) => {
    ssr += (truth[i] - (p.value as number)) ** 2;
    sst += (truth[i] - mean) ** 2;
  });
  return 1 - ssr / sst;
}

function main(): void {
  const args = process.argv.slice(2);
  const r = args.indexOf('--reps');
  const reps = r >= 0 ? Number(args[r + 1]) : 3;
  const u = args.indexOf('--using');
  const using = u >= 0 ? (JSON.parse(args[u + 1]) as Record<string, unknown>) : undefined;
  const t = args.indexOf('--threads');
  const threads = t >= 0 ? Number(args[t + 1]) : undefined;
  const values = new Set([r, u, t].filter((i) => i >= 0).map((i) => i + 1));
  const names = args.filter((a, i) => !a.startsWith('--') && !values.has(i));
  const load = () => {
    try {
      return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    } catch {
      return '?';
    }
  };
  for (const name of names.length ? names : ['messy30k', 'messy200k', 'digits']) {
    progress(`speed: ${name} (load average ${load()})`);
    const res = timeCase(speedCase(name), reps, using, sklearnAvailable(), threads);
    const fmt = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(' ');
    const held = heldOut(speedCase(name), res.artifact);
    const peerHeld = res.peerResult
      ? (res.peerResult.r2 ?? res.peerResult.accuracy ?? NaN).toFixed(4)
      : '-';
    const d = res.artifact.description;
    const acc = Object.entries(d.accuracies)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(
      `${name}: engine ${res.engine.toFixed(2)} s [${fmt(res.engineRuns)}]` +
        (res.peer !== null
          ? `  HGB ${res.peer.toFixed(2)} s [${fmt(res.peerRuns)}]  ratio ${res.ratio!.toFixed(2)}` +
            `  cpu ${res.engineCpu.toFixed(2)} / ${res.peerCpu!.toFixed(2)} = ${(res.engineCpu / res.peerCpu!).toFixed(2)}` +
            `  training-thread cpu ${res.engineMainCpu.toFixed(2)} = ${(res.engineMainCpu / res.peerCpu!).toFixed(2)}`
          : '') +
        `  phases ${res.phases.map((x) => x.toFixed(3)).join(' / ')}` +
        `  trees ${res.artifact.model.gbm?.nTrees ?? 0}  held-out ${held.toFixed(4)} (HGB ${peerHeld})  validation ${acc}  selected ${d.candidates.find((x) => x.selected)?.name}`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
