// Choosing each series' candidate from the rolling-origin forecasts of every candidate. The set's
// candidate is the one with the lowest error pooled over all series (within 1 % of the best the
// simplest wins: a random walk gets naive, not an ETS that happens to match it). A series' own
// validation is a few forecast windows, too few to tell close candidates apart (with nine
// candidates, one of them beats the set's on most series by chance), so a series takes another
// candidate only when its own windows say so clearly: its errors lower than the set candidate's
// by more than three standard errors of the paired difference. Series outside the validated
// sample of a large set take the set's choice. When the pooled windows cannot tell the best
// candidate from one or two others either, the mean of their forecasts (the ensemble,
// tiedCandidates; never a baseline, nor the combination beside its own members) is the set's
// choice when the pick is not within 1 % of it: a combination of forecasts of about equal
// accuracy errs less than either, and it does not stake the forecast on which of them the few
// windows happened to favour. A GBM that could not be refitted before the earlier folds' cuts
// (short series) forecast the last fold alone: it is compared with the set's choice on that
// fold's windows, the ones both forecast, and takes its place when it errs 2 % less there.

import { AutoMLError } from '../errors';
import type { Fold, Scored } from './candidates';
import {
  OWN_MIN_DIFFERENCES,
  RESOLUTION,
  type SeriesWalk,
  type WalkVerdict,
  advantage,
} from './evidence';
import { isGbm } from './model';
import type { CandidateName } from './types';

/** Candidates within this share of the best score count as tied; the simplest of them wins. */
const TIE = 0.01;
/** Standard errors by which a series' own evidence must favour another candidate over the set's. */
const EVIDENCE_Z = 3;
/** Non-overlapping forecast windows a series needs before its own evidence counts at all. */
const MIN_WINDOWS = 3;
/**
 * A candidate ties with the best when the best's pooled advantage over it is under this many
 * standard errors (non-overlapping windows counted as the independent ones) ...
 */
const TIE_Z = 2;
/** ... and its pooled MASE is within this factor of the best's (a mean with a much worse
 * forecast errs more than the best alone, unless their errors are nearly independent). */
const TIE_RATIO = 1.15;
/** Candidates an ensemble averages at most (the best and the next tied ones). */
const ENSEMBLE_MAX = 3;
/**
 * Share of the pick's error a candidate scored on some folds only must improve on, on the windows
 * both forecast, to take its place (a GBM's iterations were chosen on the last fold's windows,
 * which flatters it there). The ensemble needs no margin beyond TIE, the one every candidate
 * needs over a simpler one: the pick is the best of nine on the same windows, as flattered by
 * them as the mean of the best two or three (on the bench's 13 sets a 2 % margin kept the pick
 * where the ensemble erred less, docs/forecasting.md).
 */
const GBM_GAIN = 0.02;

/**
 * The floors join no ensemble: a baseline repeats one season's (or one row's) noise into every
 * step, and when the validation windows cannot tell it from the best model it is because they are
 * few, not because it forecasts as well. On the 50 airports (weekly seasonality, 14-day horizon)
 * seasonal-naive was averaged with the combination and ETS: MASE 1.52 on the last origin against
 * 1.31 for statsmodels' ETS and 2.15 for seasonal-naive alone.
 */
const BASELINES: ReadonlySet<CandidateName> = new Set(['seasonal_naive', 'naive', 'drift']);

/**
 * Nor does the combination, the fixed mean of Theta, ETS and ARIMA, which are candidates
 * themselves: beside one or two of them it weighs them twice (the combination with Theta is two
 * thirds Theta), and the ensemble averages distinct forecasts. It stays a candidate of its own.
 */
const NOT_MEMBERS: ReadonlySet<CandidateName> = new Set([...BASELINES, 'combination']);

export interface Selection {
  /** Per series: index into `scored` of its candidate. */
  choice: Int32Array;
  /** Index into `scored` of the set's candidate (best pooled score). */
  setChoice: number;
  /** Per candidate: pooled MASE (its error over seasonal-naive's on the same origins), MAE. */
  mase: number[];
  mae: number[];
  /**
   * Per candidate: the pooled MASE DESCRIBE shows, `mase` but for series whose scale collapses
   * after a run of zeros (COLLAPSED), which count in the target's units over their median scale.
   */
  shownMase: number[];
  /** Per series: the validation MASE of its candidate (NaN: not validated; see shownMase). */
  ownMase: Float64Array;
  /** Per series: seasonal-naive's error sum over the origins of its candidate's MASE (its weight). */
  baseError: Float64Array;
  /** Per series: why it has its candidate. */
  reason: string[];
  /** Validated series whose candidate did worse than seasonal-naive on their own origins. */
  worse: number;
}

/**
 * Candidates a series may choose: all but a GBM that was not refitted on the earlier folds (and
 * the ensemble, which only the set chooses).
 */
function eligible(s: Scored): boolean {
  return s.name !== 'ensemble' && !partial(s);
}

/** A GBM not refitted before the earlier folds' cuts: it forecast the last fold alone. */
function partial(s: Scored): boolean {
  return isGbm(s.name) && s.runs.some((r) => r === null);
}

/** Candidate a's and b's MASE on the windows both forecast (the folds both ran on). */
function sharedMase(t: ReturnType<typeof tally>, a: number, b: number): [number, number] {
  let ea = 0;
  let eb = 0;
  let base = 0;
  t.foldBase.forEach((fb, f) => {
    if (Number.isNaN(t.foldErr[a][f]) || Number.isNaN(t.foldErr[b][f])) return;
    ea += t.foldErr[a][f];
    eb += t.foldErr[b][f];
    base += fb;
  });
  return [rel(ea, base), rel(eb, base)];
}

/** Per candidate: its error over seasonal-naive's, pooled over the validated series. */
function pooledMase(t: ReturnType<typeof tally>, C: number, validated: number[]): number[] {
  return Array.from({ length: C }, (_, c) => {
    let e = 0;
    let b = 0;
    for (const g of validated) {
      e += t.err[c][g];
      b += t.base[c][g];
    }
    return rel(e, b);
  });
}

/**
 * The candidates the validation cannot tell apart, best first: the best by pooled MASE and up to
 * ENSEMBLE_MAX - 1 others within TIE_RATIO of its MASE whose paired per-origin errors it does not
 * beat by TIE_Z standard errors. Fewer than two: nothing to combine.
 */
export function tiedCandidates(
  scored: Scored[],
  folds: Fold[],
  nSeries: number,
  validated: number[],
): number[] {
  const C = scored.length;
  const t = tally(scored, folds, nSeries);
  const mase = pooledMase(t, C, validated);
  const order = Array.from({ length: C }, (_, c) => c)
    .filter(
      (c) => eligible(scored[c]) && !NOT_MEMBERS.has(scored[c].name) && Number.isFinite(mase[c]),
    )
    .sort((a, b) => mase[a] - mase[b] || a - b);
  if (order.length < 2) return [];
  const best = order[0];
  const idx = Array.from({ length: t.originSeries.length }, (_, i) => i);
  // Consecutive origins share all but one of their H targets: H of them are one window's worth.
  const H = folds[0].packed.H;
  let windows = 0;
  for (const g of validated) windows += t.windows[g];
  const independent = Math.max(2, windows / H);
  const out = [best];
  for (const c of order.slice(1)) {
    if (out.length >= ENSEMBLE_MAX) break;
    if (!(mase[c] <= TIE_RATIO * mase[best] + 1e-12)) break;
    const z = advantage(t.perOrigin[best], t.perOrigin[c], idx, independent);
    if (z < TIE_Z || Number.isNaN(z)) out.push(c);
  }
  return out.length >= 2 ? out : [];
}

/**
 * Per-candidate, per-series error sums over the folds the candidate ran on, with seasonal-naive's
 * over the same origins, each series' forecast windows, and per origin (all folds in a row) each
 * candidate's error and the origin's series; with `keep`, only the series it marks (the others'
 * origins have no error: NaN).
 */
function tally(scored: Scored[], folds: Fold[], nSeries: number, keep: Uint8Array | null = null) {
  const C = scored.length;
  const err = Array.from({ length: C }, () => new Float64Array(nSeries));
  const base = Array.from({ length: C }, () => new Float64Array(nSeries));
  const abs = new Float64Array(C);
  const count = new Float64Array(C);
  const windows = new Float64Array(nSeries);
  const nOrigins = folds.reduce((a, f) => a + f.packed.n, 0);
  const perOrigin = Array.from({ length: C }, () => new Float64Array(nOrigins).fill(NaN));
  const originSeries = new Int32Array(nOrigins);
  // In the target's units: each candidate's absolute errors per series and seasonal-naive's on
  // the same origins, and each origin's scale (DESCRIBE's figures for a series whose scale
  // collapses after a run of zeros: shownMase).
  const unitErr = Array.from({ length: C }, () => new Float64Array(nSeries));
  const unitBase = Array.from({ length: C }, () => new Float64Array(nSeries));
  const scales = Array.from({ length: nSeries }, (): number[] => []);
  // Per candidate and fold (NaN: it did not run there) its error sum, and seasonal-naive's.
  const foldErr = scored.map((s) => Float64Array.from(folds, (f) => (s.runs[f.index] ? 0 : NaN)));
  const foldBase = new Float64Array(folds.length);
  const sn = scored.findIndex((s) => s.name === 'seasonal_naive');
  let at = 0;
  for (const [f, fold] of folds.entries()) {
    const { n, H } = fold.packed;
    const snRun = scored[sn].runs[fold.index]!;
    for (let i = 0; i < n; i++, at++) {
      const g = fold.origins[i][0];
      originSeries[at] = g;
      if (keep && !keep[g]) continue;
      let steps = 0;
      let eSn = 0;
      let uSn = 0;
      for (let k = 1; k <= H; k++) {
        const y = fold.truth(i, k);
        if (Number.isNaN(y)) break;
        const d = Math.abs(y - snRun.pred[i * H + k - 1]);
        eSn += d / snRun.scale[i];
        uSn += d;
        steps++;
      }
      if (steps > 0) scales[g].push(snRun.scale[i]);
      windows[g] += steps / H;
      foldBase[f] += eSn;
      scored.forEach((s, c) => {
        const run = s.runs[fold.index];
        if (!run) return;
        let e = 0;
        let u = 0;
        for (let k = 1; k <= steps; k++) {
          const d = Math.abs(fold.truth(i, k) - run.pred[i * H + k - 1]);
          e += d / run.scale[i];
          u += d;
          abs[c] += Number.isFinite(d) ? d : 0;
          count[c]++;
        }
        unitErr[c][g] += Number.isFinite(u) ? u : Infinity;
        unitBase[c][g] += uSn;
        const v = Number.isFinite(e) ? e : Infinity;
        err[c][g] += v;
        base[c][g] += eSn;
        foldErr[c][f] += v;
        perOrigin[c][at] = steps > 0 ? v / steps : NaN;
      });
    }
  }
  const unit = { unitErr, unitBase, scales };
  return { err, base, abs, count, windows, perOrigin, originSeries, foldErr, foldBase, ...unit };
}

/**
 * A series' origin scale falls to its floor after a run of zeros (a dry month: 1e-12), and the
 * origins after one then outweigh all others a trillion times in its scaled errors: every
 * candidate that forecasts 0 there scores alike (MASE 1.00 against 1.00), whatever it does on
 * the rest. Such a series (its smallest origin scale under COLLAPSED of its median one) is
 * described by its errors in the target's units over seasonal-naive's, MASE with one scale for
 * the whole series as Hyndman & Koehler define it for intermittent demand; its weight in the
 * model's pooled MASE is seasonal-naive's error over its median origin scale.
 */
const COLLAPSED = 1e-6;

/** Per series: the median origin scale if the series' scale collapses (COLLAPSED), else NaN. */
function collapsedScales(scales: number[][]): Float64Array {
  return Float64Array.from(scales, (s) => {
    if (s.length === 0) return NaN;
    const sorted = [...s].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    return sorted[0] < COLLAPSED * median ? median : NaN;
  });
}

/** Per candidate: the pooled MASE DESCRIBE shows (Selection.shownMase). */
function describedMase(t: ReturnType<typeof tally>, C: number, validated: number[]): number[] {
  const collapsed = collapsedScales(t.scales);
  return Array.from({ length: C }, (_, c) => {
    let e = 0;
    let b = 0;
    for (const g of validated) {
      const s = collapsed[g];
      e += s > 0 ? t.unitErr[c][g] / s : t.err[c][g];
      b += s > 0 ? t.unitBase[c][g] / s : t.base[c][g];
    }
    return shownRel(e, b);
  });
}

const rel = (e: number, b: number) => (b > 0 ? e / b : e > 0 ? Infinity : 1);

/**
 * The ratio DESCRIBE shows: 0 when both errors are 0 (exact where seasonal-naive is), Infinity
 * when only seasonal-naive's is (not defined: the description shows null and the MAE).
 */
const shownRel = (e: number, b: number) => (b > 0 ? e / b : e > 0 ? Infinity : 0);

/** A MASE in a reason's words: two decimals, or why there is none. */
const maseWords = (x: number) =>
  Number.isFinite(x) ? x.toFixed(2) : 'not defined, seasonal-naive being exact';

/** The simplest (earliest) candidate within TIE of the lowest score, among `ok`. */
function pick(score: (c: number) => number, C: number, ok: (c: number) => boolean): number {
  let best = Infinity;
  for (let c = 0; c < C; c++) if (ok(c)) best = Math.min(best, score(c));
  for (let c = 0; c < C; c++) if (ok(c) && score(c) <= best * (1 + TIE) + RESOLUTION) return c;
  return 0;
}

/**
 * Chooses the set's candidate (lowest pooled MASE, simplest within 1 %) and each validated
 * series' (its own MASE shrunk towards the pooled one); others take the set's. `forced` (USING
 * model = 'gbm') restricts the choice to the GBM when there is one; a candidate's name (USING
 * model = 'ets') to that candidate, an error when it could not be fitted. A set of random walks
 * (walkVerdict's kind 'naive') keeps naive unless a candidate beats it clearly (walkChoice); in a
 * set that is not all walks, the series that are walks by their own tests (walkVerdict's `own`)
 * choose so among themselves, on their own windows, and the others keep the set's choice.
 */
export function selectCandidates(
  scored: Scored[],
  folds: Fold[],
  nSeries: number,
  validated: number[],
  forced: 'gbm' | CandidateName | null,
  walk: WalkVerdict | null = null,
): Selection {
  const sel = selectAmong(scored, folds, nSeries, validated, forced, walk, null);
  const own = walk?.own;
  if (!own || forced || walk?.kind === 'naive') return sel;
  // A set that mixes walks with series that are not: the walks, by their own evidence, choose
  // among themselves as a set of walks does; the others keep the set's choice (the validation
  // pooled over every series, walks included, chooses better for them than their own windows
  // alone: docs/forecasting.md, "Session 19 (arima)").
  // A short series its own tests call a walk keeps the set's choice; its reason says so.
  validated.forEach((g, i) => {
    const o = own[i];
    if (o?.short) sel.reason[g] += `; ${shortWalkWords(o)}`;
  });
  const walks = validated.filter((_, i) => own[i]?.walk);
  if (walks.length === 0) return sel;
  const mask = new Uint8Array(nSeries);
  for (const g of walks) mask[g] = 1;
  const w = selectAmong(scored, folds, nSeries, walks, null, { ...walk, kind: 'naive' }, mask, {
    who: "the walk groups'",
    own: (g) => own[validated.indexOf(g)]!,
    others: validated.length - walks.length,
  });
  for (const g of walks) {
    sel.choice[g] = w.choice[g];
    sel.ownMase[g] = w.ownMase[g];
    sel.baseError[g] = w.baseError[g];
    sel.reason[g] = w.reason[g];
  }
  sel.worse = validated.filter((g) => sel.ownMase[g] > 1 + 1e-9).length;
  return sel;
}

/** How a part of a mixed set is named in its groups' reasons (selectAmong). */
interface Part {
  who: string;
  own: (g: number) => SeriesWalk;
  others: number;
}

/**
 * selectCandidates on the validated series `validated` (with `keep`, only their origins count): a
 * whole set, or one part of a set that mixes walks with other series (`part`: the walks).
 */
function selectAmong(
  scored: Scored[],
  folds: Fold[],
  nSeries: number,
  validated: number[],
  forced: 'gbm' | CandidateName | null,
  walk: WalkVerdict | null,
  keep: Uint8Array | null,
  part: Part | null = null,
): Selection {
  const C = scored.length;
  const all = tally(scored, folds, nSeries, keep);
  const mase = pooledMase(all, C, validated);
  const mae = scored.map((_, c) => (all.count[c] > 0 ? all.abs[c] / all.count[c] : NaN));
  const hasGbm = scored.some((s) => isGbm(s.name) && eligible(s));
  if (forced && forced !== 'gbm' && !scored.some((s) => s.name === forced)) {
    throw new AutoMLError(
      `USING model = '${forced}' cannot be fitted to these series (too few rows or training examples); try 'auto'`,
    );
  }
  const ok = (c: number) =>
    forced && forced !== 'gbm'
      ? scored[c].name === forced
      : eligible(scored[c]) && (forced !== 'gbm' || !hasGbm || isGbm(scored[c].name));
  let setChoice = pick((c) => mase[c], C, ok);
  // Random walks (walkVerdict): naive, unless another candidate beats it clearly (walkChoice).
  const walkBase = walkBaseline(scored, walk, forced, ok);
  let setWhy = '';
  let walkWhy = '';
  if (walkBase >= 0) {
    const w = walkChoice(scored, all, mase, folds[0].packed.H, walkBase, ok);
    [setChoice, setWhy, walkWhy] = [w.choice, w.gbmWhy, w.why(walk!)];
  }
  // The ensemble of the tied candidates when the pick is not within TIE of it (the ensemble is the
  // most complex candidate; members that forecast alike, such as naive and an ETS that found a
  // random walk, gain nothing from their mean). Its members were picked as the best on these very
  // windows, but so was the pick, the best of all of them: no further margin.
  const ens = scored.findIndex((s) => s.name === 'ensemble');
  if (!forced && walkBase < 0 && ens >= 0 && mase[ens] * (1 + TIE) + RESOLUTION < mase[setChoice]) {
    setChoice = ens;
  }
  // A GBM not refitted before the earlier cuts (too few rows, or the other GBM did better on the
  // last fold) forecast the last fold alone: compared with the pick on that fold's windows (on all
  // of them, its score and the others' would rest on unlike windows), it takes the pick's place
  // when it errs less there by GBM_GAIN. The last fold is also where the GBMs learn from as
  // many rows as the statistical models do; an earlier fold's pooled GBM learns from fewer rows
  // and errs more for that alone (its skill factor, candidates.ts). On ten 20-row yearly series
  // the GBMs were the only candidates ahead of naive and were never chosen; left out when only
  // the other GBM was refitted, Grunfeld and global temperature lost what this gained them
  // (docs/forecasting.md).
  if (!forced && walkBase < 0) {
    let best = -1;
    let bestRatio = 1 - GBM_GAIN;
    for (let c = 0; c < C; c++) {
      if (!partial(scored[c])) continue;
      const [mine, theirs] = sharedMase(all, c, setChoice);
      if (mine / theirs < bestRatio) [best, bestRatio] = [c, mine / theirs];
    }
    if (best >= 0) {
      const [mine, theirs] = sharedMase(all, best, setChoice);
      setWhy =
        `on the last validation fold's windows, the only ones it forecast, MASE ${mine.toFixed(2)} ` +
        `against ${theirs.toFixed(2)} for ${scored[setChoice].name}`;
      setChoice = best;
    }
  }
  // A series' own evidence: on the windows its set's choice forecast.
  const t = setWhy
    ? tally(
        scored,
        folds.filter((f) => scored[setChoice].runs[f.index]),
        nSeries,
        keep,
      )
    : all;
  const { err, base, windows, perOrigin, originSeries, unitErr, unitBase } = t;
  const collapsed = collapsedScales(t.scales);
  const choice = new Int32Array(nSeries).fill(setChoice);
  const ownMase = new Float64Array(nSeries).fill(NaN);
  const baseError = new Float64Array(nSeries);
  const who = part?.who ?? "the set's";
  const reason = Array.from({ length: nSeries }, () =>
    validated.length < nSeries && !part
      ? `the set's choice (its candidates were validated on a sample of ${validated.length} of ${nSeries} groups)`
      : "the set's choice",
  );
  const H = folds[0].packed.H;
  const originsOf = Array.from({ length: nSeries }, (): number[] => []);
  originSeries.forEach((g, i) => originsOf[g].push(i));
  let worse = 0;
  const setName = scored[setChoice].name;
  for (const g of validated) {
    const own = (c: number) => rel(err[c][g], base[c][g]);
    // What DESCRIBE says of it (see COLLAPSED); the choice stays the scaled errors'.
    const unit = collapsed[g] > 0;
    const shown = unit
      ? (c: number) => shownRel(unitErr[c][g], unitBase[c][g])
      : (c: number) => shownRel(err[c][g], base[c][g]);
    // Consecutive origins share all but one of their H targets: H of them are one window's worth
    // (counted as independent, 12 overlapping monthly origins claimed sqrt(12) times the evidence
    // they hold, and series of unemployment left the set's ETS for an ARIMA that erred more).
    const w = windows[g] / H;
    let c = setChoice;
    if (w >= MIN_WINDOWS) {
      // Candidates that beat the set's clearly on this series; the best of them by its own MASE.
      let best = -1;
      for (let x = 0; x < C; x++) {
        if (x === setChoice || !ok(x)) continue;
        const z = advantage(perOrigin[x], perOrigin[setChoice], originsOf[g], w);
        if (!(z > EVIDENCE_Z)) continue;
        if (best < 0 || own(x) < own(best)) best = x;
      }
      if (best >= 0) c = best;
    }
    choice[g] = c;
    ownMase[g] = shown(c);
    baseError[g] = unit ? unitBase[c][g] / collapsed[g] : base[c][g];
    const m = maseWords(shown(c));
    if (c !== setChoice) {
      reason[g] =
        `beats ${who} ${setName} clearly on this group's ${w.toFixed(1)} validation windows ` +
        `(MASE ${m} against ${maseWords(shown(setChoice))})`;
    } else if (forced) {
      reason[g] = `USING model = '${forced}' (MASE ${m} on this group)`;
    } else if (part && walkWhy) {
      reason[g] =
        `${ownWalkWords(part.own(g), part.others, scored[setChoice].name)} (MASE ${m} on this group)`;
    } else if (setWhy || walkWhy) {
      reason[g] = `${who} choice: ${setWhy || walkWhy} (MASE ${m} on this group)`;
    } else if (c === ens) {
      reason[g] =
        `${who} choice: the mean of ${scored[ens].members!.join(', ')}, which the validation ` +
        `windows could not tell apart (MASE ${m} on this group)`;
    } else {
      const ownBest = pick(shown, C, ok);
      reason[g] =
        ownBest === c
          ? `lowest validation error on this group too (MASE ${m})`
          : `${who} choice: this group's ${w.toFixed(1)} validation windows favour ${scored[ownBest].name} ` +
            `(MASE ${maseWords(shown(ownBest))} against ${m}), within their noise`;
    }
    if (shown(c) > 1 + 1e-9) {
      worse++;
      reason[g] += '; worse than seasonal-naive on this group alone';
    }
  }
  const shownMase = describedMase(all, C, validated);
  return { choice, setChoice, mase, shownMase, mae, ownMase, baseError, reason, worse };
}

/** A walk group's reason in a set that mixes walks with other series (its own tests' figures). */
function ownWalkWords(w: SeriesWalk, others: number, naive: string): string {
  const rest = others === 1 ? "the set's other group" : `the set's other ${others} groups`;
  return (
    `its own evidence, unlike ${rest}: a unit root (Dickey-Fuller p = ${w.unitRootP.toFixed(2)}) ` +
    `and ${w.n} differences white noise around zero (Ljung-Box p = ${w.whiteP.toFixed(2)}, drift ` +
    `p = ${w.driftP.toFixed(2)}): a random walk's, and no candidate beats ${naive} by ${WALK_Z} ` +
    `standard errors on the walk groups' validation windows`
  );
}

/** A short series' walk evidence, which does not set the set's choice aside (evidence.ts
 * OWN_MIN_DIFFERENCES). */
function shortWalkWords(w: SeriesWalk): string {
  return (
    `its own tests call it a random walk (Dickey-Fuller p = ${w.unitRootP.toFixed(2)}, Ljung-Box ` +
    `p = ${w.whiteP.toFixed(2)}, drift p = ${w.driftP.toFixed(2)}), but its ${w.n} differences ` +
    `are too few to set the set's choice aside (${OWN_MIN_DIFFERENCES}: the validated choice ` +
    `forecast such series better than naive)`
  );
}

/** Standard errors of the paired per-origin difference by which a candidate must beat a random
 * walk's baseline (walkChoice). */
const WALK_Z = 2;

/**
 * Naive's index (seasonal-naive's without a season) when walkVerdict found the set's series random
 * walks (a unit root, differences white around zero) and the choice is free; -1 otherwise. Walks that drift are left to the validation: the drift candidate's
 * slope over the lookback is noisier than a small drift is large, and the models that estimate it
 * over the whole series (Theta, ARIMA with drift) forecast them better than naive.
 */
function walkBaseline(
  scored: Scored[],
  walk: WalkVerdict | null,
  forced: 'gbm' | CandidateName | null,
  ok: (c: number) => boolean,
): number {
  if (forced || walk?.kind !== 'naive') return -1;
  // Without a season (yearly series) seasonal-naive is naive, and the only one of them.
  let naive = scored.findIndex((s) => s.name === 'naive');
  if (naive < 0) naive = scored.findIndex((s) => s.name === 'seasonal_naive');
  return naive >= 0 && ok(naive) ? naive : -1;
}

/**
 * The set's candidate when its series are random walks (walkVerdict): the
 * baseline, unless a candidate beats it clearly on the pooled validation windows (MASE lower by
 * TIE and a paired advantage over WALK_Z standard errors, H consecutive origins counted as one
 * window); the ensemble and a GBM scored on the last fold alone then take its place under the
 * same evidence. Validation alone cannot tell a walk from the models that fit its noise (on 200
 * monthly walks of 120 rows, the simplest within 1 % was naive on 116): the walk's tests are the
 * evidence from outside it, and the models then have to earn their place.
 */
function walkChoice(
  scored: Scored[],
  t: ReturnType<typeof tally>,
  mase: number[],
  H: number,
  base: number,
  ok: (c: number) => boolean,
) {
  const idx = Array.from({ length: t.originSeries.length }, (_, i) => i);
  const clear = (c: number, over: number) => {
    let pairs = 0;
    for (const i of idx) if (Number.isFinite(t.perOrigin[c][i] - t.perOrigin[over][i])) pairs++;
    return advantage(t.perOrigin[c], t.perOrigin[over], idx, Math.max(2, pairs / H)) > WALK_Z;
  };
  let choice = base;
  for (let c = 0; c < scored.length; c++) {
    if (c === base || !ok(c) || !(mase[c] * (1 + TIE) < mase[base])) continue;
    if ((choice === base || mase[c] < mase[choice]) && clear(c, base)) choice = c;
  }
  const ens = scored.findIndex((s) => s.name === 'ensemble');
  if (ens >= 0 && mase[ens] * (1 + TIE) < mase[choice] && clear(ens, choice)) choice = ens;
  let gbmWhy = '';
  for (let c = 0; c < scored.length; c++) {
    if (!partial(scored[c])) continue;
    const [mine, theirs] = sharedMase(t, c, choice);
    if (mine / theirs < 1 - GBM_GAIN && clear(c, choice)) {
      gbmWhy =
        `on the last validation fold's windows, the only ones it forecast, MASE ${mine.toFixed(2)} ` +
        `against ${theirs.toFixed(2)} for ${scored[choice].name}, by more than ${WALK_Z} standard errors`;
      choice = c;
    }
  }
  const name = scored[base].name;
  const why = (w: WalkVerdict) => {
    if (choice !== base) return '';
    const [which, its] =
      w.series === 1 ? ['the series has', 'its'] : [`its ${w.series} series have`, 'their'];
    return (
      `${which} a unit root (Dickey-Fuller p = ${w.unitRootP.toFixed(2)}) and ${its} ${w.n} ` +
      `differences are white noise around zero (Ljung-Box p = ${w.whiteP.toFixed(2)}, drift p = ` +
      `${w.driftP.toFixed(2)}): a random walk's, and no candidate beats ${name} by ${WALK_Z} ` +
      `standard errors on the validation windows`
    );
  };
  return { choice, gbmWhy, why };
}
