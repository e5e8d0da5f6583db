// The engine beside scikit-learn on the same rows (issue 15): training time against
// HistGradientBoosting with early stopping, held-out quality and probabilities, interval coverage
// (overall, by predicted-value quintile and by a categorical group), prediction throughput, the
// text encoder and the decision rule. scikit-learn is optional: without it the peer figures print
// as "sklearn not installed" and the engine's own figures still run.

import {
  type Dataset,
  type ModelArtifact,
  type Prediction,
  loadPredictor,
  train,
} from '../server/automl/index';
import {
  type SplitData,
  fixedSplit,
  heteroTable,
  loadCsv,
  runPeer,
  sklearnAvailable,
  sklearnToy,
  ticketTable,
  toColumns as columnsOf,
} from './automl-data';
import { type SpeedResult, speedCase, timeCase } from './automl-speed';
import { type BenchLine, progress } from './types';

/** The bench's fixed held-out split (seed 1234, 80/20), as bench/automl.ts makes it. */
export const split = fixedSplit;
type Split = SplitData;

export interface EngineRun {
  artifact: ModelArtifact;
  trainSeconds: number;
  preds: Prediction[];
  /** Held-out truth: numbers (regression) or label strings. */
  truth: (number | string)[];
  predictRowsPerSecond: number;
}

/** Trains on the split's training rows; predicts the test rows; times 100k-row predictions. */
export function runEngine(s: Split, target: string, using?: Record<string, unknown>): EngineRun {
  const t0 = performance.now();
  const artifact = train(s.train, { target, using });
  return evaluateEngine(s, target, artifact, (performance.now() - t0) / 1000);
}

/** Predicts the test rows with a trained artifact and times 100k-row predictions. */
export function evaluateEngine(
  s: Split,
  target: string,
  artifact: ModelArtifact,
  trainSeconds: number,
): EngineRun {
  const p = loadPredictor(artifact);
  const n = s.test.rows.length;
  const preds = p.predictColumns!(columnsOf(s.test), n);
  const tj = s.test.columns.indexOf(target);
  const truth = s.test.rows.map((r) =>
    artifact.task === 'regression' ? Number(r[tj]) : String(r[tj]),
  );
  // Steady state, as bench/automl.ts: two warm-ups (V8 optimises the compiled trees), median of 3.
  const N = 100_000;
  const big = columnsOf({
    columns: s.test.columns,
    rows: Array.from({ length: N }, (_, i) => s.test.rows[i % n]),
  });
  p.predictColumns!(big, N);
  p.predictColumns!(big, N);
  const ts: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t1 = performance.now();
    p.predictColumns!(big, N);
    ts.push(performance.now() - t1);
  }
  ts.sort((a, b) => a - b);
  const predictRowsPerSecond = N / (ts[1] / 1000);
  return { artifact, trainSeconds, preds, truth, predictRowsPerSecond };
}

export interface ClassQuality {
  balancedAccuracy: number;
  accuracy: number;
  logLoss: number;
  minProb: number;
  maxProb: number;
}

export function classQuality(r: EngineRun): ClassQuality {
  const labels = r.artifact.description.classes!.map(String);
  const recall = new Map<string, [number, number]>();
  let ok = 0;
  let ll = 0;
  let minProb = 1;
  let maxProb = 0;
  r.preds.forEach((p, i) => {
    const t = r.truth[i] as string;
    const hit = String(p.value) === t;
    if (hit) ok++;
    const c = recall.get(t) ?? [0, 0];
    recall.set(t, [c[0] + (hit ? 1 : 0), c[1] + 1]);
    ll -= Math.log(Math.max(p.probabilities![t] ?? 0, 1e-15));
    for (const l of labels) {
      const q = p.probabilities![l];
      minProb = Math.min(minProb, q);
      maxProb = Math.max(maxProb, q);
    }
  });
  let ba = 0;
  for (const [h, n] of recall.values()) ba += h / n;
  return {
    balancedAccuracy: ba / recall.size,
    accuracy: ok / r.preds.length,
    logLoss: ll / r.preds.length,
    minProb,
    maxProb,
  };
}

export interface Coverage {
  overall: number;
  /** Lowest and highest coverage over the five predicted-value quintiles. */
  quintileMin: number;
  quintileMax: number;
  /** Lowest and highest coverage over the groups of `groupBy` (a categorical input). */
  groupMin: number;
  groupMax: number;
  r2: number;
}

export function coverage(r: EngineRun, test: Dataset, groupBy?: string): Coverage {
  const n = r.preds.length;
  const inside = r.preds.map((p, i) => {
    const t = r.truth[i] as number;
    return t >= p.lower! && t <= p.upper! ? 1 : 0;
  });
  const rate = (idx: number[]) => idx.reduce((s, i) => s + inside[i], 0) / Math.max(1, idx.length);
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (a, b) => (r.preds[a].value as number) - (r.preds[b].value as number),
  );
  const q = [0, 1, 2, 3, 4].map((k) =>
    rate(order.slice(Math.floor((k * n) / 5), Math.floor(((k + 1) * n) / 5))),
  );
  let g = [rate(order)];
  if (groupBy) {
    const j = test.columns.indexOf(groupBy);
    const groups = new Map<string, number[]>();
    test.rows.forEach((row, i) => {
      const k = String(row[j]);
      groups.set(k, [...(groups.get(k) ?? []), i]);
    });
    g = [...groups.values()].filter((ix) => ix.length >= 20).map(rate);
  }
  let ssr = 0;
  let sst = 0;
  const mean = (r.truth as number[]).reduce((s, v) => s + v, 0) / n;
  r.preds.forEach((p, i) => {
    ssr += ((r.truth[i] as number) - (p.value as number)) ** 2;
    sst += ((r.truth[i] as number) - mean) ** 2;
  });
  return {
    overall: rate(order),
    quintileMin: Math.min(...q),
    quintileMax: Math.max(...q),
    groupMin: Math.min(...g),
    groupMax: Math.max(...g),
    r2: 1 - ssr / sst,
  };
}

function line(name: string, value: number, unit: string, target: string, pass: boolean): BenchLine {
  return { name, value: Math.round(value * 10000) / 10000, unit, target, pass };
}

const NO_SKLEARN = 'sklearn not installed';

/** A time ratio against its ceiling. */
function ratioLine(name: string, ratio: number, max: number): BenchLine {
  return line(name, ratio, 'x', `<= ${max}`, ratio <= max);
}

export async function runPeerBench(): Promise<BenchLine[]> {
  const out: BenchLine[] = [];
  const haveSk = sklearnAvailable();
  if (!haveSk) progress(`automl peers: ${NO_SKLEARN} (apt-get install python3-sklearn)`);
  let slowestPredict = Infinity;
  let slowestName = '';
  const noteRate = (name: string, r: EngineRun) => {
    if (r.predictRowsPerSecond < slowestPredict) {
      slowestPredict = r.predictRowsPerSecond;
      slowestName = name;
    }
  };

  // 3. Training time against HGB with early stopping, 30k and 200k rows of the messy table;
  // 2b. its intervals overall, by predicted-value quintile and by the 'kind' group.
  for (const n of [30_000, 200_000]) {
    const tag = `messy ${n / 1000}k`;
    progress(`automl peers: ${tag} (${SPEED_REPS} trainings and HGB fits, alternated)`);
    const c = speedCase(`messy${n / 1000}k`);
    const t = await timeCase(c, SPEED_REPS, undefined, haveSk);
    const s = c.split;
    const r = evaluateEngine(s, 'y', t.artifact, t.engine);
    noteRate(tag, r);
    const cov = coverage(r, s.test, 'kind');
    out.push(
      line(`automl ${tag}: train time (median of ${SPEED_REPS})`, t.engine, 's', 'report', true),
    );
    if (t.peerResult) {
      const peer = t.peerResult;
      out.push(speedLine(tag, t, peer.iterations!, 1.5));
      out.push(
        line(
          `automl ${tag}: r2 (HGB ${peer.r2!.toFixed(4)})`,
          cov.r2,
          'r2',
          '>= HGB - 0.005',
          cov.r2 >= peer.r2! - 0.005,
        ),
      );
    } else {
      out.push(noPeer(`automl ${tag}: train time / HGB's`));
      out.push(line(`automl ${tag}: r2`, cov.r2, 'r2', 'report', true));
    }
    out.push(...coverageLines(tag, cov, 'kind', n === 30_000 ? ' (issue: 0.96 overall)' : ''));
  }

  // 2b. Quiet and noisy regions (issue: 0.93 vs 0.99 between them), a small set (0.82).
  {
    progress('automl peers: quiet / noisy regions');
    const s = split(heteroTable());
    const r = runEngine(s, 'y');
    noteRate('hetero', r);
    out.push(
      ...coverageLines(
        'quiet/noisy 2k',
        coverage(r, s.test, 'zone'),
        'zone',
        ' (issue: 0.93 vs 0.99)',
      ),
    );
  }

  // The toy datasets come from scikit-learn.
  if (haveSk) {
    progress('automl peers: diabetes (353 training rows)');
    const dia = split(sklearnToy('diabetes'));
    const rd = runEngine(dia, 'target');
    noteRate('diabetes', rd);
    const cd = coverage(rd, dia.test);
    const pd = runPeer(dia, 'target', 'regression');
    out.push(line(`automl diabetes: r2 (HGB ${pd.r2!.toFixed(4)})`, cd.r2, 'r2', 'report', true));
    out.push(...coverageLines('diabetes (small)', cd, '', ' (issue: 0.82 on small sets)'));

    // 2a. Probabilities on small data: wine's 142 training rows (issue: log-loss ~1.6, peers ~0.1).
    for (const name of ['wine', 'iris', 'breast_cancer']) {
      progress(`automl peers: ${name}`);
      const s = split(sklearnToy(name));
      const r = runEngine(s, 'target');
      noteRate(name, r);
      const q = classQuality(r);
      const peer = runPeer(s, 'target', r.artifact.task);
      const trees = r.artifact.model.gbm?.nTrees ?? 0;
      out.push(
        line(
          `automl ${name} (${s.train.rows.length} rows): log-loss (HGB ${peer.log_loss!.toFixed(3)}; ${trees} trees${name === 'wine' ? '; issue: ~1.6, peers ~0.1' : ''})`,
          q.logLoss,
          'nats',
          `<= ${Math.max(0.15, peer.log_loss! * 1.5).toFixed(3)}`,
          q.logLoss <= Math.max(0.15, peer.log_loss! * 1.5),
        ),
      );
      out.push(
        line(
          `automl ${name}: balanced accuracy (HGB ${peer.balanced_accuracy!.toFixed(3)})`,
          q.balancedAccuracy,
          'score',
          'report',
          true,
        ),
      );
      out.push(
        line(
          `automl ${name}: smallest / largest probability (largest ${q.maxProb.toPrecision(6)})`,
          q.minProb,
          'p',
          '> 0 and < 1',
          q.minProb > 0 && q.maxProb < 1,
        ),
      );
    }

    // 3. Ten classes on 1,438 rows (issue: ~50 s, predictions ~400 rows/s; peers 2 s).
    progress(`automl peers: digits (${SPEED_REPS} trainings and HGB fits, alternated)`);
    const dc = speedCase('digits');
    const dt = await timeCase(dc, SPEED_REPS);
    const dg = dc.split;
    const r = evaluateEngine(dg, 'target', dt.artifact, dt.engine);
    noteRate('digits', r);
    const peer = dt.peerResult!;
    const q = classQuality(r);
    out.push(
      speedLine(`digits (10 classes, ${dg.train.rows.length} rows)`, dt, peer.iterations!, 3),
    );
    out.push(
      line(
        `automl digits: accuracy / log-loss ${q.logLoss.toFixed(3)} (HGB ${peer.accuracy!.toFixed(3)} / ${peer.log_loss!.toFixed(3)})`,
        q.accuracy,
        'score',
        `>= ${(peer.accuracy! - 0.01).toFixed(3)}`,
        q.accuracy >= peer.accuracy! - 0.01,
      ),
    );
    out.push(
      line(
        'automl digits: predict rows/s (issue: ~400)',
        r.predictRowsPerSecond,
        'rows/s',
        '>= 100000',
        r.predictRowsPerSecond >= 1e5,
      ),
    );
  } else {
    out.push(noPeer('automl small data, digits and diabetes figures'));
  }
  // 1. Words of a short text column (support tickets: the title carries the topic).
  {
    progress('automl peers: ticket titles');
    const s = split(ticketTable());
    const words = runEngine(s, 'topic');
    noteRate('tickets', words);
    const stats = runEngine(s, 'topic', { text_encoder: 'stats' });
    const qw = classQuality(words);
    const qs = classQuality(stats);
    const ref = haveSk ? runPeer(s, 'topic', 'multiclass', 'title') : null;
    out.push(
      line(
        `automl tickets (text): balanced accuracy with words (length + word count only: ${qs.balancedAccuracy.toFixed(3)}; ${ref ? `sklearn TF-IDF + logistic ${ref.balanced_accuracy!.toFixed(3)}` : NO_SKLEARN})`,
        qw.balancedAccuracy,
        'score',
        ref ? `>= ${(ref.balanced_accuracy! - 0.02).toFixed(3)}` : '> stats + 0.2',
        ref
          ? qw.balancedAccuracy >= ref.balanced_accuracy! - 0.02
          : qw.balancedAccuracy > qs.balancedAccuracy + 0.2,
      ),
    );
    out.push(line('automl tickets (text): train time', words.trainSeconds, 's', 'report', true));
  }

  // 4. The decision rule on bank churn (20 % positives): both rules, reported in DESCRIBE.
  {
    progress('automl peers: bank churn decision rules');
    const s = split(loadCsv('bank_customer_churn.csv'));
    const balanced = runEngine(s, 'Exited');
    const argmax = runEngine(s, 'Exited', { decision: 'argmax' });
    noteRate('bank', balanced);
    const qb = classQuality(balanced);
    const qa = classQuality(argmax);
    const d = balanced.artifact.description.decision!;
    out.push(
      line(
        `automl bank: decision 'balanced' balanced accuracy / accuracy ${qb.accuracy.toFixed(3)} (DESCRIBE validation: ${d.balanced.balanced_accuracy.toFixed(3)} / ${d.balanced.accuracy.toFixed(3)})`,
        qb.balancedAccuracy,
        'score',
        `> argmax's ${qa.balancedAccuracy.toFixed(3)}`,
        qb.balancedAccuracy > qa.balancedAccuracy,
      ),
    );
    out.push(
      line(
        `automl bank: decision 'argmax' accuracy / balanced accuracy ${qa.balancedAccuracy.toFixed(3)} (DESCRIBE validation: ${d.argmax.accuracy.toFixed(3)} / ${d.argmax.balanced_accuracy.toFixed(3)})`,
        qa.accuracy,
        'score',
        `> balanced's ${qb.accuracy.toFixed(3)}`,
        qa.accuracy > qb.accuracy,
      ),
    );
  }

  out.push(
    line(
      `automl predict rows/s, slowest model of this suite (${slowestName})`,
      slowestPredict,
      'rows/s',
      '>= 100000',
      slowestPredict >= 1e5,
    ),
  );
  return out;
}

/**
 * Trainings per timed case: engine and HGB alternate and the medians are compared (the machine is
 * shared; one run can be 2x off).
 */
const SPEED_REPS = 3;

/** The training-time ratio line of a timed case (wall clock; CPU seconds in the name). */
function speedLine(tag: string, t: SpeedResult, iterations: number, max: number): BenchLine {
  return ratioLine(
    `automl ${tag}: train time / HGB's (${t.engine.toFixed(2)} vs ${t.peer!.toFixed(2)} s, HGB ${iterations} it; first training ${(t.engineCold / t.peer!).toFixed(2)}x, CPU ${(t.engineCpu / t.peerCpu!).toFixed(2)}x)`,
    t.ratio!,
    max,
  );
}

function noPeer(name: string): BenchLine {
  return { name: `${name}: ${NO_SKLEARN}`, value: NaN, unit: '', target: '', pass: true };
}

function coverageLines(tag: string, c: Coverage, group: string, note: string): BenchLine[] {
  const ok = (v: number) => v >= 0.88 && v <= 0.92;
  const out = [
    line(
      `automl ${tag}: 90% coverage overall${note}`,
      c.overall,
      'fraction',
      '0.88-0.92',
      ok(c.overall),
    ),
    line(
      `automl ${tag}: coverage by predicted quintile, worst (best ${c.quintileMax.toFixed(3)})`,
      c.quintileMin,
      'fraction',
      '>= 0.85',
      c.quintileMin >= 0.85,
    ),
  ];
  if (group) {
    out.push(
      line(
        `automl ${tag}: coverage by '${group}', worst (best ${c.groupMax.toFixed(3)})`,
        c.groupMin,
        'fraction',
        '>= 0.85',
        c.groupMin >= 0.85,
      ),
    );
  }
  return out;
}
