// Is the validation honest about each candidate? Reads bench/timeseries-choices.ts's JSON and, per
// candidate, compares its error on the test windows with its error on the validation folds:
// `npx tsx bench/timeseries-optimism.ts choices.json [more.json ...]`.
// Per set and origin, a candidate's validation MASE is the mean over the validated series of its
// mean per-step error over the series' fold origins (each on the fold's own scale), its test MASE
// the mean over the same series of the bench's MASE; the two scales differ, so the ratio alone
// says little, but they are the same for every candidate of a series: a candidate's log ratio minus
// the mean log ratio of Theta, ETS and ARIMA at the same set and origin says how much more (> 1)
// the validation flatters it than it flatters the statistical models, and so how far the choice
// leans towards it on every set. Printed per candidate: set-origins, geometric means of the ratio
// and of the relative ratio with the standard error of its log; then the same on full validation
// windows only (origins with HORIZON steps left; the others weigh the first steps more than the
// test does); then, per candidate the set chose, its relative ratio there (the winner's curse).

import { readFileSync } from 'node:fs';

interface Fold {
  g: number[];
  steps: number[];
  err: (number | null)[][];
}
interface Entry {
  set: string;
  origin: number;
  horizon: number;
  series: string[];
  candidates: { name: string }[];
  val: Fold[];
  choice: { set: string };
  tasks: {
    key: string;
    truth: number[];
    scale: number;
    candidates: Record<string, (number | null)[] | undefined>;
  }[];
}

const REFERENCE = ['theta', 'ets', 'arima'];

function testMase(truth: number[], scale: number, f: (number | null)[] | undefined): number {
  if (!f || f.some((x) => x === null)) return NaN;
  let e = 0;
  truth.forEach((y, j) => (e += Math.abs(y - f[j]!)));
  return e / truth.length / scale;
}

/** Per candidate: [validation MASE, test MASE] at one set and origin (`full`: full windows). */
function pairs(e: Entry, full: boolean): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  e.candidates.forEach(({ name }, ci) => {
    const perSeries = new Map<number, number[]>();
    for (const fold of e.val) {
      fold.err[ci].forEach((x, i) => {
        const k = fold.steps[i];
        if (x === null || !Number.isFinite(x) || k === 0 || (full && k < e.horizon)) return;
        const g = fold.g[i];
        perSeries.set(g, [...(perSeries.get(g) ?? []), x / k]);
      });
    }
    let v = 0;
    let t = 0;
    let n = 0;
    for (const task of e.tasks) {
      const errs = perSeries.get(e.series.indexOf(task.key));
      const m = testMase(task.truth, task.scale, task.candidates[name]);
      if (!errs || !Number.isFinite(m)) continue;
      v += errs.reduce((a, b) => a + b, 0) / errs.length;
      t += m;
      n++;
    }
    if (n > 0 && v > 0 && t > 0) out.set(name, [v / n, t / n]);
  });
  return out;
}

/**
 * A validation MASE above this: a series whose origin scale collapsed after a run of zeros (the
 * daily precipitation's dry spells, selection.ts COLLAPSED), where the candidates' fold scales
 * differ by orders of magnitude; such a set-origin is left out.
 */
const COLLAPSED_MASE = 1e3;

/** Per candidate: log(test / validation), and that minus the reference candidates' mean. */
function logRatios(e: Entry, full: boolean): Map<string, [number, number]> | null {
  const p = pairs(e, full);
  if ([...p.values()].some(([v]) => v > COLLAPSED_MASE)) return null;
  const lr = new Map([...p].map(([n, [v, t]]) => [n, Math.log(t / v)]));
  const base = REFERENCE.map((n) => lr.get(n));
  if (base.some((x) => x === undefined)) return null;
  const b = base.reduce((a, x) => a! + x!, 0)! / base.length;
  return new Map([...lr].map(([n, x]) => [n, [x, x - b]]));
}

const geo = (xs: number[]) => Math.exp(xs.reduce((a, b) => a + b, 0) / xs.length);
function se(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  const v = xs.reduce((a, x) => a + (x - m) ** 2, 0) / Math.max(1, xs.length - 1);
  return Math.sqrt(v / xs.length);
}

for (const path of process.argv.slice(2)) {
  const entries = JSON.parse(readFileSync(path, 'utf8')) as Entry[];
  console.log(`${path}: ${entries.length} set-origins`);
  for (const full of [false, true]) {
    const raw = new Map<string, number[]>();
    const rel = new Map<string, number[]>();
    for (const e of entries) {
      for (const [n, [x, r]] of logRatios(e, full) ?? []) {
        raw.set(n, [...(raw.get(n) ?? []), x]);
        rel.set(n, [...(rel.get(n) ?? []), r]);
      }
    }
    console.log(full ? '  full validation windows only:' : '  every validation window:');
    console.log('    candidate        n   test/val  relative  se(log)');
    for (const [n, xs] of rel) {
      const cells = [xs.length.toString().padStart(3), geo(raw.get(n)!).toFixed(3).padStart(8)];
      cells.push(geo(xs).toFixed(3).padStart(9), se(xs).toFixed(3).padStart(8));
      console.log(`    ${n.padEnd(15)} ${cells.join(' ')}`);
    }
  }
  const chosen = new Map<string, number[]>();
  for (const e of entries) {
    const r = logRatios(e, false)?.get(e.choice.set);
    if (r) chosen.set(e.choice.set, [...(chosen.get(e.choice.set) ?? []), r[1]]);
  }
  const words = [...chosen].map(([n, xs]) => `${n} ${xs.length}x ${geo(xs).toFixed(3)}`);
  console.log(`  the set's choice, relative ratio where chosen: ${words.join(', ')}`);
}
