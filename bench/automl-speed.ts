// Training time of the engine beside scikit-learn's HistGradientBoosting (early stopping; one
// OpenMP thread unless PEER_THREADS says more) on the same rows, as issue 15 item 3 measures it:
// each case alternates engine and HGB runs and reports the medians (the machine is shared and
// noisy, single runs mislead). The engine trains where the server trains: in a training worker
// (server/automl-worker/train.ts, the instance's own entry) that receives the columns as the
// trainer sends them, on AUTOML_THREADS / `--threads` threads (default 2). As the server's trainer
// does, one worker serves the case's trainings one after the other: the first is cold (its code
// not yet compiled, reported apart), the median is taken of the others. HGB's time is its fit()
// (Python and scikit-learn already loaded), the engine's the worker's training (module loading
// excluded, as trainingTimeMs reports it).
// Standalone: `npx tsx bench/automl-speed.ts [messy30k] [messy200k] [digits] [--reps 3]
// [--threads 1]`.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  ColumnarBuilder,
  type ColumnarDataset,
  transferables,
} from '../server/models/training-columns';
import type { TrainMessage, WorkerRequest } from '../server/models/worker-protocol';
import {
  type Dataset,
  type ModelArtifact,
  deserializeArtifact,
  loadPredictor,
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
export function columnarOf(d: Dataset): ColumnarDataset {
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
  /** Median seconds of the warm trainings (the worker's second and later ones). */
  engine: number;
  /** Seconds of the worker's first training (cold: its code not compiled yet). */
  engineCold: number;
  peer: number | null;
  ratio: number | null;
  engineRuns: number[];
  peerRuns: number[];
  /** Medians of CPU seconds (the engine's threads, HGB's fit), less sensitive to other load. */
  engineCpu: number;
  peerCpu: number | null;
  /**
   * Median seconds per training phase (from the progress ticks): profile (types, target),
   * encode, candidates, analysis (scales, calibration, importance, missing inputs), refit/finish.
   */
  phases: number[];
  /** The last engine artifact and HGB result (quality figures are read from them). */
  artifact: ModelArtifact;
  peerResult: PeerResult | null;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const WORKER_BOOTSTRAP = new URL('../server/automl-worker/bootstrap.mjs', import.meta.url);
const WORKER_ENTRY = new URL('../server/automl-worker/train.ts', import.meta.url).href;

/** One training in `worker`: its time (as the worker reports it), CPU and phase marks. */
function trainInWorker(
  worker: Worker,
  data: ColumnarDataset,
  target: string,
  using: Record<string, unknown> | undefined,
  artifactFile: string,
): Promise<{ seconds: number; cpu: number; phases: number[] }> {
  const marks: number[] = [];
  const c0 = process.cpuUsage();
  return new Promise((resolveRun, reject) => {
    const onMessage = (m: TrainMessage) => {
      if (m.type === 'progress') {
        marks.push(performance.now());
        return;
      }
      worker.off('message', onMessage);
      if (m.type === 'error') {
        reject(new Error(`training failed: ${m.message}`));
        return;
      }
      marks.push(performance.now());
      const c = process.cpuUsage(c0);
      resolveRun({
        seconds: m.trainingTimeMs / 1000,
        cpu: (c.user + c.system) / 1e6,
        phases: marks.slice(1).map((t, j) => (t - marks[j]) / 1000),
      });
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
    const request = {
      mode: 'train' as const,
      data,
      target,
      using: using ?? {},
      timeseries: null,
      artifactFile,
      evidenceFile: artifactFile.replace(/\.json$/, '.evidence.json'),
    };
    worker.postMessage({ type: 'train', request } satisfies WorkerRequest, transferables(data));
  });
}

/**
 * Alternates `reps` engine trainings (one training worker, as the server's trainer reuses one)
 * and HGB fits; medians of each, the engine's of its warm trainings.
 */
export async function timeCase(
  c: SpeedCase,
  reps: number,
  using?: Record<string, unknown>,
  withPeer = sklearnAvailable(),
  threads?: number,
): Promise<SpeedResult> {
  const dir = mkdtempSync(join(tmpdir(), 'automl-speed-'));
  const env = { ...process.env, ...(threads ? { AUTOML_THREADS: String(threads) } : {}) };
  const worker = new Worker(WORKER_BOOTSTRAP, { workerData: { entry: WORKER_ENTRY }, env });
  const engineRuns: number[] = [];
  const peerRuns: number[] = [];
  const engineCpu: number[] = [];
  const peerCpu: number[] = [];
  const phaseRuns: number[][] = [];
  let peerResult: PeerResult | null = null;
  const artifactFile = join(dir, 'artifact.json');
  try {
    // One cold training, then `reps` warm ones.
    for (let i = 0; i <= reps; i++) {
      // The worker takes the column buffers: each training gets its own copy.
      const run = await trainInWorker(
        worker,
        columnarOf(c.split.train),
        c.target,
        using,
        artifactFile,
      );
      engineRuns.push(run.seconds);
      if (i === 0) continue;
      engineCpu.push(run.cpu);
      phaseRuns.push(run.phases);
      if (withPeer) {
        peerResult = runPeer(c.split, c.target, c.task);
        peerRuns.push(peerResult.fit_s);
        peerCpu.push(peerResult.fit_cpu_s ?? NaN);
      }
    }
    const artifact = deserializeArtifact(readFileSync(artifactFile, 'utf8')) as ModelArtifact;
    const engine = median(engineRuns.slice(1));
    const peer = withPeer ? median(peerRuns) : null;
    return {
      engine,
      engineCold: engineRuns[0],
      peer,
      ratio: peer ? engine / peer : null,
      engineRuns,
      peerRuns,
      engineCpu: median(engineCpu),
      phases: phaseRuns[0].map((_, j) => median(phaseRuns.map((p) => p[j] ?? 0))),
      peerCpu: withPeer ? median(peerCpu) : null,
      artifact,
      peerResult,
    };
  } finally {
    await worker.terminate();
    rmSync(dir, { recursive: true, force: true });
  }
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

async function main(): Promise<void> {
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
    const res = await timeCase(speedCase(name), reps, using, sklearnAvailable(), threads);
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
      `${name}: engine ${res.engine.toFixed(2)} s [cold ${fmt(res.engineRuns.slice(0, 1))}, warm ${fmt(res.engineRuns.slice(1))}]` +
        (res.peer !== null
          ? `  HGB ${res.peer.toFixed(2)} s [${fmt(res.peerRuns)}]  ratio ${res.ratio!.toFixed(2)}` +
            `  cold ratio ${(res.engineCold / res.peer).toFixed(2)}` +
            `  cpu ${res.engineCpu.toFixed(2)} / ${res.peerCpu!.toFixed(2)} = ${(res.engineCpu / res.peerCpu!).toFixed(2)}`
          : '') +
        `  phases ${res.phases.map((x) => x.toFixed(3)).join(' / ')}` +
        `  trees ${res.artifact.model.gbm?.nTrees ?? 0}  held-out ${held.toFixed(4)} (HGB ${peerHeld})  validation ${acc}  selected ${d.candidates.find((x) => x.selected)?.name}`,
    );
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) void main();
