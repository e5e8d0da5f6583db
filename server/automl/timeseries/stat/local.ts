// The statistical ("local") candidates of a forecaster: one model per series, fitted to that
// series alone (ETS, Theta, seasonal ARIMA), as opposed to the GBMs pooled over every series.
// One interface for fitting and forecasting them, so the validation, the calibration and the
// loaded forecaster run them through the same code.

import {
  type ArimaFit,
  type ArimaOrder,
  arimaForecast,
  arimaName,
  arimaPlan,
  fitArima,
} from './arima';
import { type EtsFit, type EtsForm, etsForecast, etsName, fitEts } from './ets';
import { type ThetaFit, fitTheta, thetaForecast } from './theta';
import { type TsbFit, fitTsb, tsbForecast } from './tsb';
import { type YearlyTerms, fitYearly, withoutYearly, yearlyAt } from './yearly';

export type LocalName = 'ets' | 'theta' | 'arima' | 'tsb';
/**
 * The models fitted to every series (and averaged by the combination), simplest first (ties in
 * validation go to the earlier one). `tsb` (stat/tsb.ts) is fitted only to intermittent series.
 */
export const LOCAL_NAMES: readonly LocalName[] = ['theta', 'ets', 'arima'];

/**
 * A fitted local model, told apart by `kind` (JSON: what the artifact keeps per group); `yearly`:
 * it models what the yearly season of a daily series leaves (stat/yearly.ts).
 */
export type LocalFit = (
  | ({ kind: 'ets' } & EtsFit)
  | ({ kind: 'theta' } & ThetaFit)
  | ({ kind: 'arima' } & ArimaFit)
  | ({ kind: 'tsb' } & TsbFit)
) & { yearly?: YearlyTerms };

/**
 * The clock of a daily series, for its yearly season: each row's epoch-ms time and the step.
 * Absent for other frequencies.
 */
export interface LocalClock {
  t: ArrayLike<number>;
  step: number;
}

/**
 * What a fit may be restricted to: ETS forms and ARIMA orders found on similar series (a search
 * on a sample of a large set), or the exact form / order of an earlier fit (refitting it on other
 * rows).
 */
export interface LocalHint {
  etsForms?: EtsForm[];
  arimaOrders?: ArimaOrder[];
  /** Refit exactly this form / order (its differences too), not a search among them. */
  exact?: boolean;
  /** Theta: the season found on other rows (its period and decomposition), not tested again. */
  thetaSeason?: { m: number; multiplicative: boolean };
  /** With `exact`: refit the yearly season's terms too (true) or leave them out (false). */
  yearly?: boolean;
}

/** Fewest rows a local model is fitted on (below, the series is forecast by seasonal-naive). */
const LOCAL_MIN_ROWS = 6;

/**
 * Fits `name` to y[start .. end] with seasonal period m; null when it cannot be fitted. `times`:
 * the rows' timestamps (an ARIMA drift trend continues from its fit's last row in time).
 */
export function fitLocal(
  name: LocalName,
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  hint: LocalHint = {},
  clock?: LocalClock,
  times?: ArrayLike<number>,
): LocalFit | null {
  if (end - start + 1 < LOCAL_MIN_ROWS) return null;
  if (name === 'tsb') {
    const f = fitTsb(y, start, end);
    return f && { kind: 'tsb', ...f };
  }
  // Not ARIMA: its order search on the remainder chose over-differenced models (d = 1, an MA
  // near -1) that erred 12 % more a week ahead on Seattle's daily temperatures than its plain
  // weekly model, where ETS and Theta gained 3-5 % from the yearly terms.
  const yearly =
    clock && name !== 'arima' && (!hint.exact || hint.yearly)
      ? fitYearly(y, clock.t, start, end, clock.step, hint.exact === true)
      : null;
  if (yearly) {
    const rest = new Float64Array(end - start + 1);
    for (let i = start; i <= end; i++) rest[i - start] = y[i] - yearlyAt(yearly, clock!.t[i]);
    const f = fitSeasonal(name, rest, 0, rest.length - 1, m, hint);
    return f && { ...f, yearly };
  }
  return fitSeasonal(name, y, start, end, m, hint, times);
}

/** fitLocal without the yearly season. */
function fitSeasonal(
  name: LocalName,
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  hint: LocalHint,
  times?: ArrayLike<number>,
): LocalFit | null {
  if (name === 'ets') {
    const f = fitEts(y, start, end, m, hint.etsForms);
    return f && { kind: 'ets', ...f };
  }
  if (name === 'theta') {
    const f = fitTheta(y, start, end, m, hint.thetaSeason);
    return f && { kind: 'theta', ...f };
  }
  const orders = hint.arimaOrders;
  // Refitting an exact order keeps its differences (the tests may decide otherwise on other
  // rows, which would change the model, not just its coefficients); orders found on other
  // series take this series' differences.
  const plan =
    hint.exact && orders?.length
      ? { d: orders[0].d, D: orders[0].D, m: orders[0].m }
      : arimaPlan(y, start, end, m);
  const f = fitArima(y, start, end, m, { plan, orders, times });
  return f && { kind: 'arima', ...f };
}

/** The hint that refits exactly this model's form or order. */
export function sameForm(fit: LocalFit): LocalHint {
  const yearly = fit.yearly !== undefined;
  if (fit.kind === 'ets') {
    const form = { error: fit.error, trend: fit.trend, season: fit.season };
    return { etsForms: [form], exact: true, yearly };
  }
  if (fit.kind === 'arima') {
    const { p, d, q, P, D, Q, m, constant, trend } = fit;
    const order = { p, d, q, P, D, Q, m, constant, ...(trend ? { trend } : {}) };
    return { arimaOrders: [order], exact: true, yearly };
  }
  if (fit.kind === 'tsb') return { exact: true };
  return { exact: true, thetaSeason: { m: fit.m, multiplicative: fit.multiplicative }, yearly };
}

/**
 * The hint that refits a model validated on earlier rows on a whole series (the forecasting fit):
 * its form or order, with what the same information criterion can re-decide cheaply on the new
 * rows. ETS keeps its trend and season and chooses its error type again (additive or
 * multiplicative, each at its own maximum likelihood), or every form again when the validation
 * rows were fewer than twice the parameters of the series' largest form (`short`: a short series
 * of a panel, validated on the few rows the set's common cut leaves it; rows too few for a
 * seasonal form are among them); ARIMA keeps its orders and differences and chooses again whether
 * it has a constant (a drift) and a drift trend. Theta refits as it was
 * (but tests its season again when the validation rows were too few for the test).
 * Searching every form or order again on the whole series made sets worse (docs/forecasting.md:
 * ETS on every form, geometric mean 1.006 of the 13 bench sets; electrical equipment lost its rank).
 */
export function refitForm(fit: LocalFit): LocalHint {
  const h = sameForm(fit);
  // Validated on rows fewer than twice the largest form's parameters: every form searched again.
  if (fit.kind === 'ets' && fit.short) return { ...h, etsForms: undefined };
  if (fit.kind === 'ets' && fit.season !== 'M') {
    const form = h.etsForms![0];
    const forms: EtsForm[] = [form, { ...form, error: form.error === 'A' ? 'M' : 'A' }];
    return { ...h, etsForms: forms };
  }
  // Validated on rows too few for the seasonal test: the season is tested again on all the rows.
  if (fit.kind === 'theta' && fit.untested) return { exact: true, yearly: h.yearly };
  if (fit.kind === 'arima' && fit.d + fit.D <= 1) {
    // fitArima's own rules: a constant up to one difference, a drift trend with exactly one
    // and no seasonal part.
    const { trend: _, ...plain } = h.arimaOrders![0];
    const trend = fit.d + fit.D === 1 && fit.m === 1;
    const orders: ArimaOrder[] = [];
    for (const constant of [false, true]) {
      orders.push({ ...plain, constant });
      if (trend) orders.push({ ...plain, constant, trend: true });
    }
    return { ...h, arimaOrders: orders };
  }
  return h;
}

/**
 * Forecasts steps 1..H after y[end] from y[start .. end] with a fitted model; a model of the
 * yearly season's remainder needs the time of y[end] (`lastTime`, epoch ms) and of each step
 * (`stepTimes`, NaN where unknown: one step after the previous).
 */
export function localForecast(
  fit: LocalFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
  H: number,
  out: Float64Array,
  o: number,
  lastTime = NaN,
  stepTimes?: ArrayLike<number>,
): void {
  const yr = fit.yearly;
  // The yearly season's remainder is what the model filters (the history without the season).
  const rest = yr ? withoutYearly(yr, y, start, end, lastTime) : y;
  const [s, e] = yr ? [0, end - start] : [start, end];
  if (fit.kind === 'ets') etsForecast(fit, rest, s, e, H, out, o);
  else if (fit.kind === 'tsb') tsbForecast(fit, rest, s, e, H, out, o);
  else if (fit.kind === 'theta') thetaForecast(fit, rest, s, e, H, out, o);
  else arimaForecast(fit, rest, s, e, H, out, o, lastTime);
  if (!yr) return;
  for (let k = 1; k <= H; k++) {
    const t = stepTimes?.[k - 1];
    out[o + k - 1] += yearlyAt(yr, Number.isFinite(t) ? t! : lastTime + k * yr.step);
  }
}

/** A fitted model's name as statistics books write it: 'ETS(M,Ad,M)', 'ARIMA(1,1,1)(0,1,1)12', 'Theta'. */
export function localLabel(fit: LocalFit): string {
  const yearly = fit.yearly ? ` + yearly season (${fit.yearly.coef.length / 2} harmonics)` : '';
  if (fit.kind === 'ets') return etsName(fit) + yearly;
  if (fit.kind === 'arima') return arimaName(fit) + yearly;
  if (fit.kind === 'tsb')
    return 'TSB (intermittent demand; the median of its forecast distribution)';
  return (fit.m > 1 ? `Theta (deseasonalised, period ${fit.m})` : 'Theta') + yearly;
}
