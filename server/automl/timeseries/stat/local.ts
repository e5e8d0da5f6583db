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

export type LocalName = 'ets' | 'theta' | 'arima';
/** Simplest first (ties in validation go to the earlier one). */
export const LOCAL_NAMES: readonly LocalName[] = ['theta', 'ets', 'arima'];

/** A fitted local model, told apart by `kind` (JSON: what the artifact keeps per group). */
export type LocalFit =
  ({ kind: 'ets' } & EtsFit) | ({ kind: 'theta' } & ThetaFit) | ({ kind: 'arima' } & ArimaFit);

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
}

/** Fewest rows a local model is fitted on (below, the series is forecast by seasonal-naive). */
const LOCAL_MIN_ROWS = 6;

/** Fits `name` to y[start .. end] with seasonal period m; null when it cannot be fitted. */
export function fitLocal(
  name: LocalName,
  y: ArrayLike<number>,
  start: number,
  end: number,
  m: number,
  hint: LocalHint = {},
): LocalFit | null {
  if (end - start + 1 < LOCAL_MIN_ROWS) return null;
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
  const f = fitArima(y, start, end, m, { plan, orders });
  return f && { kind: 'arima', ...f };
}

/** The hint that refits exactly this model's form or order. */
export function sameForm(fit: LocalFit): LocalHint {
  if (fit.kind === 'ets') {
    return { etsForms: [{ error: fit.error, trend: fit.trend, season: fit.season }], exact: true };
  }
  if (fit.kind === 'arima') {
    const { p, d, q, P, D, Q, m, constant } = fit;
    return { arimaOrders: [{ p, d, q, P, D, Q, m, constant }], exact: true };
  }
  return { exact: true, thetaSeason: { m: fit.m, multiplicative: fit.multiplicative } };
}

/** Forecasts steps 1..H after y[end] from y[start .. end] with a fitted model. */
export function localForecast(
  fit: LocalFit,
  y: ArrayLike<number>,
  start: number,
  end: number,
  H: number,
  out: Float64Array,
  o: number,
): void {
  if (fit.kind === 'ets') etsForecast(fit, y, start, end, H, out, o);
  else if (fit.kind === 'theta') thetaForecast(fit, y, start, end, H, out, o);
  else arimaForecast(fit, y, start, end, H, out, o);
}

/** A fitted model's name as statistics books write it: 'ETS(M,Ad,M)', 'ARIMA(1,1,1)(0,1,1)12', 'Theta'. */
export function localLabel(fit: LocalFit): string {
  if (fit.kind === 'ets') return etsName(fit);
  if (fit.kind === 'arima') return arimaName(fit);
  return fit.m > 1 ? `Theta (deseasonalised, period ${fit.m})` : 'Theta';
}
