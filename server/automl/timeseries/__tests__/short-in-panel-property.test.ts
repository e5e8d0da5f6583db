// A short series beside long ones (a panel whose series start at different dates): one timestamp
// splits every series for validation, so the short one is validated on the few rows before it,
// too few for Theta's seasonal test (three seasons). Its forecasting refit on all its rows tests
// the season again (stat/theta.ts `untested`, local.ts refitForm), as ETS chooses its season
// again from rows too few for a seasonal form. Before, Theta forecast such a series without its
// season: on session 19's simulated ETS(M,A,M) panel (bench/timeseries-sets.ts, SIM) the two
// shortest series' forced Theta scored MASE 5.0-6.3 where statsmodels' Theta, on the same rows,
// scored 0.4-0.8 (docs/forecasting.md, "Session 19 (forecast)").
import { describe, expect, it } from 'vitest';
import type { CellValue, Dataset } from '../../api';
import { loadPredictor, trainForecaster } from '../../index';
import { Rng } from '../../prng';
import { fitLocal, localForecast, refitForm } from '../stat/local';
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
    const a = trainForecaster(d, {
      target: 'y',
      orderBy: 't',
      groupBy: ['g'],
      window: m,
      horizon: m,
      using: { model: 'theta' },
    });
    const choice = a.description.timeseries!.choices!.find((c) => c.group[0] === 'short')!;
    expect(choice.model).toBe(`Theta (deseasonalised, period ${m})`);
    expect(choice.reason).toContain('tested again on all rows');
    const out = loadPredictor(a).forecast(columnsOf(d), d.rows.length);
    const [jg, jy] = [out.columns.indexOf('g'), out.columns.indexOf('y')];
    const mine = out.rows.filter((r) => r[jg] === 'short').map((r) => Number(r[jy]));
    expect(mine).toHaveLength(m);
    mine.forEach((v, k) => expect(Math.abs(v - y[n + k]) / Math.abs(level)).toBeLessThan(1e-6));
  });
});
