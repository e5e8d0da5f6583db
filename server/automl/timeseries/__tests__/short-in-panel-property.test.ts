// A short series beside long ones (a panel whose series start at different dates): one timestamp
// splits every series for validation, so the short one is validated on the few rows before it,
// too few for Theta's seasonal test (three seasons). Its forecasting refit on all its rows tests
// the season again (stat/theta.ts `untested`, local.ts refitForm), as ETS chooses its season
// again from rows too few for a seasonal form. Before, Theta forecast such a series without its
// season: on session 19's simulated ETS(M,A,M) panel (bench/timeseries-sets.ts, SIM) the two
// shortest series' forced Theta scored MASE 5.0-6.3 where statsmodels' Theta, on the same rows,
// scored 0.4-0.8 (docs/forecasting.md, "Session 19 (forecast)").
// ETS's form chosen there (its trend, its season) was refitted unchanged on all its rows; a search
// on rows fewer than twice the parameters of the series' largest form is now marked `short`
// (stat/ets.ts) and its forecasting refit searches every form again (local.ts refitForm). On the
// same panel forced ETS scored 0.914 where the form searched on all rows scored 0.641
// (statsmodels' 0.632; docs/forecasting.md, "Session 19 (forecast, round 2)").
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset } from '../../api';
import { loadPredictor, trainForecaster } from '../../index';
import { Rng } from '../../prng';
import { etsName } from '../stat/ets';
import { type LocalFit, fitLocal, localForecast, refitForm } from '../stat/local';
import { seasonalTest } from '../stat/season';
import { columnsOf } from './helpers';

const pad = (x: number) => String(x).padStart(2, '0');

/** The i-th of n month starts ending at the panel's last one (2029-12). */
function month(i: number, n: number): string {
  const months = 2030 * 12 - (n - i);
  return `${Math.floor(months / 12)}-${pad((months % 12) + 1)}-01`;
}

/**
 * A pure season of period m over n rows and the m after: a level (10 .. 1e5, either sign) plus a
 * random pattern.
 */
function pureSeason(rng: Rng, m: number, n: number) {
  const level = (rng.next() < 0.3 ? -1 : 1) * 10 ** (1 + 4 * rng.next());
  const pattern = Array.from({ length: m }, () => level + Math.abs(level) * 0.3 * rng.next());
  return { y: Array.from({ length: n + m }, (_, t) => pattern[t % m]), level };
}

/**
 * A monthly panel: a long series (a level, a slope and noise) and a short pure season ending at
 * the same month, whose exact continuation is the answer.
 */
function panel(rng: Rng, long: number, short: number) {
  const rows: CellValue[][] = [];
  let x = 100;
  for (let i = 0; i < long; i++) {
    x += 1 + rng.next() - 0.5;
    rows.push(['long', month(i, long), Number(x.toFixed(4))]);
  }
  const { y, level } = pureSeason(rng, 12, short);
  for (let i = 0; i < short; i++) rows.push(['short', month(i, short), y[i]]);
  const d: Dataset = { columns: ['g', 't', 'y'], rows };
  return { d, y, level };
}

/** Trains a forced model on a panel with a group `short`; that group's choice and forecast. */
function shortGroup(d: Dataset, model: 'theta' | 'ets', m: number) {
  const a = trainForecaster(d, {
    target: 'y',
    orderBy: 't',
    groupBy: ['g'],
    window: m,
    horizon: m,
    using: { model },
  });
  const choice = a.description.timeseries!.choices!.find((c) => c.group[0] === 'short')!;
  const out = loadPredictor(a).forecast(columnsOf(d), d.rows.length);
  const [jg, jy] = [out.columns.indexOf('g'), out.columns.indexOf('y')];
  return { choice, mine: out.rows.filter((r) => r[jg] === 'short').map((r) => Number(r[jy])) };
}

describe('Theta validated on rows too few for its seasonal test tests the season again', () => {
  // The fit and refit alone (no engine around them): 6 draws per period, the validation rows
  // 1.5-2.9 seasons, all the rows 4-5 seasons of a pure season (levels 10 .. 1e5, either sign).
  for (const m of [4, 7, 12]) {
    it(`period ${m}: the refit on all the rows is seasonal and continues the season exactly`, () => {
      const rng = new Rng(19 * m);
      for (let draw = 0; draw < 6; draw++) {
        const n = 4 * m + rng.int(m + 1);
        const cut = Math.floor(1.5 * m) + rng.int(Math.floor(1.4 * m));
        const { y, level } = pureSeason(rng, m, n);
        const all = Float64Array.from(y.slice(0, n));
        expect(seasonalTest(all, 0, n - 1, m)).toBe(true);
        const main = fitLocal('theta', all, 0, cut - 1, m)!;
        expect(main.kind === 'theta' && main.untested).toBe(true);
        const fit = fitLocal('theta', all, 0, n - 1, m, refitForm(main))!;
        expect(fit.kind === 'theta' && fit.m).toBe(m);
        const out = new Float64Array(m);
        localForecast(fit, all, 0, n - 1, m, out, 0);
        out.forEach((v, k) => expect(Math.abs(v - y[n + k]) / Math.abs(level)).toBeLessThan(1e-6));
        // A season tested on three seasons or more is the fit's own decision, kept by the refit.
        const tested = fitLocal('theta', all, 0, n - 1, m)!;
        expect(tested.kind === 'theta' && tested.untested).toBeUndefined();
      }
    });
  }
});

describe('a short seasonal series in a long panel: its Theta forecast carries its season', () => {
  // 120 months beside 48: one timestamp splits both, so the short one is validated on its first
  // 31 months (under 3 x 12); the engine's forecasting refit tests its season on all 48.
  it('monthly, 48 rows beside 120: the season continued exactly through the engine', () => {
    const m = 12;
    const n = 48;
    const { d, y, level } = panel(new Rng(1912), 120, n);
    const { choice, mine } = shortGroup(d, 'theta', m);
    expect(choice.model).toBe(`Theta (deseasonalised, period ${m})`);
    expect(choice.reason).toContain('tested again on all rows');
    expect(mine).toHaveLength(m);
    mine.forEach((v, k) => expect(Math.abs(v - y[n + k]) / Math.abs(level)).toBeLessThan(1e-6));
  });
});

/** A standard normal draw (Box-Muller). */
function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

/** n rows of a trend with a season of period m (none when m is 1) and noise, all positive. */
function draw(rng: Rng, m: number, n: number): Float64Array {
  const slope = 0.5 + 1.5 * rng.next();
  const amp = m > 1 ? 5 + 10 * rng.next() : 0;
  const y = new Float64Array(n);
  for (let t = 0; t < n; t++)
    y[t] = 100 + slope * t + amp * Math.sin((2 * Math.PI * t) / m) + 2 * normal(rng);
  return y;
}

const form = (f: LocalFit) => (f.kind === 'ets' ? etsName(f) : f.kind);

/** The largest form's parameters (damped, seasonal with a period): stat/ets.ts parameterCount. */
const largest = (m: number) => (m > 1 ? m + 6 : 6);

describe('ETS validated on rows short of its parameters searches every form again', () => {
  for (const m of [1, 4, 12]) {
    it(`period ${m}: the refit is the search on all rows; longer validations keep their form`, () => {
      const rng = new Rng(1919 * m);
      const k = largest(m);
      for (let i = 0; i < 6; i++) {
        const n = 3 * k + rng.int(k);
        const y = draw(rng, m, n);
        // Short: from the fewest rows a trend form takes to under twice the largest form's count.
        const cut = Math.max(8, m > 1 ? m + 7 : 8) + rng.int(2 * k - Math.max(8, m + 7));
        const main = fitLocal('ets', y, 0, cut - 1, m)!;
        expect(main.kind === 'ets' && main.short).toBe(true);
        const refit = fitLocal('ets', y, 0, n - 1, m, refitForm(main))!;
        const all = fitLocal('ets', y, 0, n - 1, m)!;
        expect(form(refit)).toBe(form(all));
        // The draws trend (0.5-2 a row against noise of 2): on all rows every search finds it,
        // where the short validation's form was trendless in 11 of the 18 draws.
        expect(form(refit).slice(6)).not.toMatch(/^N,/);
        expect(refit.kind === 'ets' && all.kind === 'ets' && refit.aicc - all.aicc).toBe(0);
        const [a, b] = [new Float64Array(m + 2), new Float64Array(m + 2)];
        localForecast(refit, y, 0, n - 1, m + 2, a, 0);
        localForecast(all, y, 0, n - 1, m + 2, b, 0);
        expect(Array.from(a)).toEqual(Array.from(b));
        // Validated on twice the largest form's parameters or more: its trend and season kept.
        const long = fitLocal('ets', y, 0, 2 * k - 1 + rng.int(k), m)!;
        expect(long.kind === 'ets' && long.short).toBeUndefined();
        const kept = fitLocal('ets', y, 0, n - 1, m, refitForm(long))!;
        expect(form(kept).slice(6)).toBe(form(long).slice(6));
      }
    });
  }
});

describe('a short trending series in a long panel: its ETS forecast is the search on all its rows', () => {
  // 120 months beside 42: one timestamp splits both, so the short one is validated on its first
  // 26 or so months (under 2 x 18, ETS(A,Ad,A)'s parameters at period 12).
  it('monthly, 42 rows beside 120: the forecast is that of the form searched on all 42', () => {
    const m = 12;
    const rng = new Rng(4219);
    const rows: CellValue[][] = [];
    const long = draw(rng, m, 120);
    long.forEach((v, i) => rows.push(['long', month(i, 120), v]));
    const y = draw(rng, m, 42);
    y.forEach((v, i) => rows.push(['short', month(i, 42), v]));
    const d: Dataset = { columns: ['g', 't', 'y'], rows };
    const all = fitLocal('ets', y, 0, y.length - 1, m)!;
    const want = new Float64Array(m);
    localForecast(all, y, 0, y.length - 1, m, want, 0);
    const { choice, mine } = shortGroup(d, 'ets', m);
    expect(choice.model).toBe(form(all));
    expect(choice.reason).toContain('the validation rows too few for its parameters');
    expect(mine).toHaveLength(m);
    mine.forEach((v, k) => expect(v).toBeCloseTo(want[k], 6));
  });
});
