// The series sets of `npm run bench -- timeseries`: public series of the kinds forecasters meet
// (yearly, quarterly, monthly, daily; one series to fifty), all available offline. From the
// `vega-datasets` package (a dev dependency): global temperature (yearly), CO2 (monthly), US
// employment (22 monthly series), unemployment across industries (14), stocks (5), Seattle daily
// maximum temperature, and daily departures of the 50 busiest airports in its 3 million flights
// of 2001 (weekly seasonality, holidays). From statsmodels' datasets (when Debian's
// python3-statsmodels is installed): Grunfeld's investment of 10 firms (short yearly series), the
// Nile's flow and sunspots (yearly), US macroeconomic series (12 quarterly), electrical equipment
// orders (monthly). The demo table house_sales (synthetic, data/demo: 7 quarterly series), the one
// the forecasting tutorial trains on.
//
// The hold-out sets (HOLDOUT, `TIMESERIES_SETS=holdout`): series no choosing rule was tuned on,
// for judging a rule on what it has not seen (the 13 above stay the default run, so their figures
// stay comparable), with the frequencies and shapes the 13 lack. From `vega-datasets`: Seattle's
// hourly climate normals of 2010 (temperature, pressure, wind: hourly, 3 series), Seattle's and
// New York's daily minimum temperature and precipitation of 2012-2015 (weather.csv; precipitation
// mostly zeros), the S&P 500 (monthly, 2000-2010: the 2008 fall), Iowa's net electricity generation
// by source (yearly, 3 series of 17 years; renewables' level climbing), deaths from natural
// disasters by kind (yearly, Our World in Data via vega: spikes; its missing years as zeros) and
// Playfair's wheat price and wages (every 5 years, 1565-1820). From statsmodels' datasets:
// Mauna Loa CO2 weekly (1958-2001, with missing weeks: gaps), El Nino sea surface temperature
// (monthly, 1950-2010), Danish money demand (quarterly, 5 series of 55) and US inflation and
// interest rate (quarterly, 2 series). Where statsmodels' SARIMAX order search would take minutes
// per fit (hourly, daily, weekly), the peers fit the last `peerRows` rows, as its users would.
//
// The fresh sets (FRESH, `TIMESERIES_SETS=fresh`, session 16): series no session had run the
// engine on before, for the acceptance of issue 29 on unseen series once the hold-out sets had
// been looked at for two sessions; each set's WINDOW, HORIZON and origins set from its frequency
// and length before any forecast was made. From statsmodels' datasets: World Bank fertility rates
// (yearly, 1960-2011, a fixed sample of 38 countries: every 5th with complete data, see
// fertility()), Longley's US macro series (yearly, 6 series of 16, 1947-1962) and the world
// copper market (yearly, 5 series of 25, 1951-1975). From `vega-datasets`: wildlife strikes a
// month in the 10 US states with the most (FAA, 1990-2002: small seasonal counts with zeros) and
// the S&P 500's daily close and volume (2000 to April 2020, its trading sessions numbered: dated,
// its holidays are gaps the engine's forecast timestamps do not skip; the last origins fall in
// the crash of March 2020). Not taken: vega's github.csv (simulated, says its
// datapackage), crimea.json and ohlc.json (24 months, 44 days: too short for their origins),
// population.json and jobs.json (censuses every 10 years with 1890 missing), weekly-weather.json
// (one week) and statsmodels' strikes (one row per strike, not a time series). Sources and
// licences: docs/forecasting.md, "Session 16 (forecast)".

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Papa from 'papaparse';
import type { CellValue, Dataset } from '../server/automl/index';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const VEGA = join(ROOT, 'node_modules', 'vega-datasets', 'data');
export const PYTHON = '/usr/bin/python3';
export const STATSMODELS_SCRIPT = join(
  dirname(fileURLToPath(import.meta.url)),
  'statsmodels_peer.py',
);

export interface SeriesSet {
  name: string;
  kind: 'yearly' | 'quarterly' | 'monthly' | 'weekly' | 'daily' | 'hourly';
  /** Where the rows come from (a set needing statsmodels is skipped without it). */
  source: 'vega-datasets' | 'statsmodels' | 'demo';
  data: () => Promise<Dataset> | Dataset;
  target: string;
  orderBy: string;
  groupBy: string[];
  window: number;
  horizon: number;
  /** Seasonal period of seasonal-naive, the MASE scale and the peers (1: none). */
  period: number;
  /** Forecast origins, HORIZON apart from the end: each a training on the rows before it. */
  origins: number;
  /**
   * The statsmodels peers fit only the last this many training rows (a long hourly or daily
   * series, where SARIMAX's order search would take minutes per fit); the engine trains on all.
   */
  peerRows?: number;
}

function csv(file: string): Record<string, CellValue>[] {
  const text = readFileSync(join(VEGA, file), 'utf8');
  return Papa.parse<Record<string, CellValue>>(text.trim(), { header: true, dynamicTyping: true })
    .data;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (x: number) => String(x).padStart(2, '0');

/** Whether Debian's python3-statsmodels is installed (the peers and the statsmodels sets). */
export function statsmodelsAvailable(): boolean {
  const r = spawnSync(PYTHON, ['-c', 'import statsmodels'], { encoding: 'utf8' });
  return r.status === 0;
}

/** A statsmodels dataset as {columns, rows}. */
function statsmodelsData(name: string): Dataset {
  const r = spawnSync(PYTHON, [STATSMODELS_SCRIPT, 'dump', name], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`statsmodels_peer.py dump ${name}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Dataset;
}

/** Daily departures of the 50 airports with the most flights in vega's flights-3m (2001 H1). */
async function flights(): Promise<Dataset> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const file = join(VEGA, 'flights-3m.parquet').replace(/'/g, "''");
  const r = await c.runAndReadAll(`
    WITH f AS (SELECT origin, CAST(date AS DATE) AS day FROM '${file}' WHERE date < '2001-07-01'),
    top AS (SELECT origin FROM f GROUP BY origin ORDER BY count(*) DESC, origin LIMIT 50),
    days AS (SELECT DISTINCT day FROM f)
    SELECT t.origin, strftime(d.day, '%Y-%m-%d') AS day, count(f.origin) AS departures
    FROM top t CROSS JOIN days d LEFT JOIN f ON f.origin = t.origin AND f.day = d.day
    GROUP BY t.origin, d.day ORDER BY t.origin, d.day`);
  const rows = r.getRowsJson().map((x) => [String(x[0]), String(x[1]), Number(x[2])]);
  c.closeSync();
  return { columns: ['airport', 'day', 'departures'], rows };
}

export const SETS: SeriesSet[] = [
  {
    name: 'house_sales demo (quarterly, 7 series)',
    kind: 'quarterly',
    source: 'demo',
    data: () => {
      const text = readFileSync(join(ROOT, 'data', 'demo', 'house_sales.csv'), 'utf8');
      const rows = Papa.parse<Record<string, CellValue>>(text.trim(), {
        header: true,
        dynamicTyping: true,
      }).data;
      return {
        columns: ['saledate', 'ma', 'type', 'bedrooms'],
        rows: rows.map((r) => [r.saledate, r.ma, r.type, r.bedrooms]),
      };
    },
    target: 'ma',
    orderBy: 'saledate',
    groupBy: ['type', 'bedrooms'],
    window: 8,
    horizon: 4,
    period: 4,
    origins: 3,
  },
  {
    name: 'global temperature (yearly, 1 series)',
    kind: 'yearly',
    source: 'vega-datasets',
    data: () => ({
      columns: ['year', 'temp'],
      rows: csv('global-temp.csv').map((r) => [r.year, r.temp]),
    }),
    target: 'temp',
    orderBy: 'year',
    groupBy: [],
    window: 8,
    horizon: 6,
    period: 1,
    origins: 8,
  },
  {
    name: 'Grunfeld investment (yearly, 10 short series)',
    kind: 'yearly',
    source: 'statsmodels',
    data: () => {
      const d = statsmodelsData('grunfeld');
      const j = (c: string) => d.columns.indexOf(c);
      return {
        columns: ['firm', 'year', 'invest'],
        rows: d.rows.map((r) => [r[j('firm')], Number(r[j('year')]), r[j('invest')]]),
      };
    },
    target: 'invest',
    orderBy: 'year',
    groupBy: ['firm'],
    window: 4,
    horizon: 3,
    period: 1,
    origins: 2,
  },
  {
    name: 'Nile flow (yearly, 1 series)',
    kind: 'yearly',
    source: 'statsmodels',
    data: () => {
      const d = statsmodelsData('nile');
      return { columns: ['year', 'volume'], rows: d.rows.map((r) => [Number(r[0]), r[1]]) };
    },
    target: 'volume',
    orderBy: 'year',
    groupBy: [],
    window: 8,
    horizon: 6,
    period: 1,
    origins: 6,
  },
  {
    name: 'sunspots (yearly, 1 series)',
    kind: 'yearly',
    source: 'statsmodels',
    data: () => {
      const d = statsmodelsData('sunspots');
      return { columns: ['year', 'activity'], rows: d.rows.map((r) => [Number(r[0]), r[1]]) };
    },
    target: 'activity',
    orderBy: 'year',
    groupBy: [],
    window: 12,
    horizon: 8,
    period: 1,
    origins: 8,
  },
  {
    name: 'US macro (quarterly, 12 series)',
    kind: 'quarterly',
    source: 'statsmodels',
    data: () => {
      const d = statsmodelsData('macrodata');
      const rows: CellValue[][] = [];
      const ends = ['03-31', '06-30', '09-30', '12-31'];
      for (const r of d.rows) {
        const date = `${Number(r[0])}-${ends[Number(r[1]) - 1]}`;
        d.columns.slice(2).forEach((c, j) => rows.push([c, date, r[j + 2]]));
      }
      return { columns: ['series', 'quarter', 'value'], rows };
    },
    target: 'value',
    orderBy: 'quarter',
    groupBy: ['series'],
    window: 8,
    horizon: 8,
    period: 4,
    origins: 3,
  },
  {
    name: 'CO2 concentration (monthly, 1 series)',
    kind: 'monthly',
    source: 'vega-datasets',
    data: () => ({
      columns: ['date', 'co2'],
      rows: csv('co2-concentration.csv').map((r) => [r.Date, r.CO2]),
    }),
    target: 'co2',
    orderBy: 'date',
    groupBy: [],
    window: 24,
    horizon: 12,
    period: 12,
    origins: 6,
  },
  {
    name: 'electrical equipment orders (monthly, 1 series)',
    kind: 'monthly',
    source: 'statsmodels',
    data: () => {
      const d = statsmodelsData('elec_equip');
      return { columns: ['month', 'orders'], rows: d.rows };
    },
    target: 'orders',
    orderBy: 'month',
    groupBy: [],
    window: 12,
    horizon: 12,
    period: 12,
    origins: 4,
  },
  {
    name: 'US employment (monthly, 22 series)',
    kind: 'monthly',
    source: 'vega-datasets',
    data: () => {
      const rows: CellValue[][] = [];
      for (const r of csv('us-employment.csv')) {
        for (const [k, v] of Object.entries(r)) {
          if (k !== 'month' && k !== 'nonfarm_change') rows.push([r.month, k, v]);
        }
      }
      return { columns: ['month', 'series', 'employees'], rows };
    },
    target: 'employees',
    orderBy: 'month',
    groupBy: ['series'],
    window: 12,
    horizon: 12,
    period: 12,
    origins: 2,
  },
  {
    name: 'unemployment across industries (monthly, 14 series)',
    kind: 'monthly',
    source: 'vega-datasets',
    data: () => {
      const json = JSON.parse(
        readFileSync(join(VEGA, 'unemployment-across-industries.json'), 'utf8'),
      ) as { series: string; year: number; month: number; count: number }[];
      return {
        columns: ['series', 'month', 'count'],
        rows: json.map((r) => [r.series, `${r.year}-${pad(r.month)}-01`, r.count]),
      };
    },
    target: 'count',
    orderBy: 'month',
    groupBy: ['series'],
    window: 12,
    horizon: 12,
    period: 12,
    origins: 2,
  },
  {
    name: 'stocks (monthly, 5 series)',
    kind: 'monthly',
    source: 'vega-datasets',
    data: () => ({
      columns: ['symbol', 'date', 'price'],
      rows: csv('stocks.csv').map((r) => {
        // "Jan 1 2000" -> "2000-01-01"
        const [mon, day, year] = String(r.date).split(' ');
        return [r.symbol, `${year}-${pad(MONTHS.indexOf(mon) + 1)}-${pad(Number(day))}`, r.price];
      }),
    }),
    target: 'price',
    orderBy: 'date',
    groupBy: ['symbol'],
    window: 12,
    horizon: 6,
    period: 12,
    origins: 3,
  },
  {
    name: 'airport departures (daily, 50 series)',
    kind: 'daily',
    source: 'vega-datasets',
    data: flights,
    target: 'departures',
    orderBy: 'day',
    groupBy: ['airport'],
    window: 28,
    horizon: 14,
    period: 7,
    origins: 2,
  },
  {
    name: 'Seattle max temperature (daily, 1 series)',
    kind: 'daily',
    source: 'vega-datasets',
    data: () => ({
      columns: ['date', 'temp_max'],
      rows: csv('seattle-weather.csv').map((r) => [r.date, r.temp_max]),
    }),
    target: 'temp_max',
    orderBy: 'date',
    groupBy: [],
    window: 28,
    horizon: 7,
    period: 7,
    origins: 6,
  },
];

/** A wide table's value columns as long rows [time, column, value] (missing values left out). */
function longRows(times: CellValue[], wide: Record<string, CellValue[]>): CellValue[][] {
  const rows: CellValue[][] = [];
  for (const [k, col] of Object.entries(wide)) {
    col.forEach((v, i) => {
      if (v !== null && v !== undefined && v !== '') rows.push([times[i], k, v]);
    });
  }
  return rows;
}

/** A statsmodels dataset's columns but `skip` as series: [time, series, value] rows. */
function statsmodelsLong(name: string, time: (r: CellValue[]) => CellValue, skip: string[]) {
  const d = statsmodelsData(name);
  const wide: Record<string, CellValue[]> = {};
  d.columns.forEach((c, j) => {
    if (!skip.includes(c)) wide[c] = d.rows.map((r) => r[j]);
  });
  return longRows(d.rows.map(time), wide);
}

/** A daily column of vega's weather.csv for Seattle and New York (2012-2015), a hold-out set. */
function weather(column: string, what: string): SeriesSet {
  return {
    name: `holdout: Seattle and New York ${what}`,
    kind: 'daily',
    source: 'vega-datasets',
    data: () => ({
      columns: ['location', 'date', column],
      rows: csv('weather.csv').map((r) => [r.location, r.date, r[column]]),
    }),
    target: column,
    orderBy: 'date',
    groupBy: ['location'],
    window: 28,
    horizon: 7,
    period: 7,
    origins: 4,
    peerRows: 365,
  };
}

/**
 * The hold-out sets: series no choosing rule was tuned on (see the header), selected apart from
 * the 13 above by `TIMESERIES_SETS=holdout`.
 */
export const HOLDOUT: SeriesSet[] = [
  {
    name: 'holdout: Seattle hourly normals (hourly, 3 series)',
    kind: 'hourly',
    source: 'vega-datasets',
    data: () => {
      const r = csv('seattle-weather-hourly-normals.csv');
      const cols = ['temperature', 'pressure', 'wind'];
      return {
        columns: ['hour', 'series', 'value'],
        // '2010-01-01 01:00:00', as DuckDB gives a TIMESTAMP through SQL.
        rows: longRows(
          r.map((x) => String(x.date).replace('T', ' ')),
          Object.fromEntries(cols.map((c) => [c, r.map((x) => x[c])])),
        ),
      };
    },
    target: 'value',
    orderBy: 'hour',
    groupBy: ['series'],
    window: 48,
    horizon: 24,
    period: 24,
    origins: 4,
    peerRows: 24 * 14,
  },
  weather('temp_min', 'minimum temperature (daily, 2 series)'),
  weather('precipitation', 'precipitation (daily, 2 series, mostly zeros)'),
  {
    name: 'holdout: Mauna Loa CO2 (weekly, 1 series with missing weeks)',
    kind: 'weekly',
    source: 'statsmodels',
    data: () => {
      const d = statsmodelsData('co2');
      // The missing weeks are left out: gaps in the timestamps, as a table of readings has them.
      return { columns: ['week', 'co2'], rows: d.rows.filter((r) => r[1] !== null) };
    },
    target: 'co2',
    orderBy: 'week',
    groupBy: [],
    window: 52,
    horizon: 13,
    period: 52,
    origins: 4,
    peerRows: 4 * 52,
  },
  {
    name: 'holdout: El Nino sea surface temperature (monthly, 1 series)',
    kind: 'monthly',
    source: 'statsmodels',
    data: () => {
      const d = statsmodelsData('elnino');
      const rows: CellValue[][] = [];
      for (const r of d.rows) {
        for (let m = 1; m <= 12; m++) rows.push([`${Number(r[0])}-${pad(m)}-01`, r[m]]);
      }
      return { columns: ['month', 'sst'], rows };
    },
    target: 'sst',
    orderBy: 'month',
    groupBy: [],
    window: 24,
    horizon: 12,
    period: 12,
    origins: 6,
  },
  {
    name: 'holdout: S&P 500 (monthly, 1 series)',
    kind: 'monthly',
    source: 'vega-datasets',
    data: () => ({
      columns: ['date', 'price'],
      rows: csv('sp500.csv').map((r) => {
        const [mon, day, year] = String(r.date).split(' ');
        return [`${year}-${pad(MONTHS.indexOf(mon) + 1)}-${pad(Number(day))}`, r.price];
      }),
    }),
    target: 'price',
    orderBy: 'date',
    groupBy: [],
    window: 12,
    horizon: 6,
    period: 12,
    origins: 4,
  },
  {
    name: 'holdout: Danish money demand (quarterly, 5 series)',
    kind: 'quarterly',
    source: 'statsmodels',
    data: () => ({
      columns: ['quarter', 'series', 'value'],
      rows: statsmodelsLong('danish_data', (r) => r[0], ['date']),
    }),
    target: 'value',
    orderBy: 'quarter',
    groupBy: ['series'],
    window: 8,
    horizon: 4,
    period: 4,
    origins: 3,
  },
  {
    name: 'holdout: US inflation and interest rate (quarterly, 2 series)',
    kind: 'quarterly',
    source: 'statsmodels',
    data: () => {
      const ends = ['03-31', '06-30', '09-30', '12-31'];
      return {
        columns: ['quarter', 'series', 'value'],
        rows: statsmodelsLong(
          'interest_inflation',
          (r) => `${Number(r[0])}-${ends[Number(r[1]) - 1]}`,
          ['year', 'quarter'],
        ),
      };
    },
    target: 'value',
    orderBy: 'quarter',
    groupBy: ['series'],
    window: 8,
    horizon: 8,
    period: 4,
    origins: 3,
  },
  {
    name: 'holdout: Iowa electricity by source (yearly, 3 short series)',
    kind: 'yearly',
    source: 'vega-datasets',
    data: () => ({
      columns: ['year', 'source', 'net_generation'],
      rows: csv('iowa-electricity.csv').map((r) => [r.year, r.source, r.net_generation]),
    }),
    target: 'net_generation',
    orderBy: 'year',
    groupBy: ['source'],
    window: 4,
    horizon: 3,
    period: 1,
    origins: 2,
  },
  {
    name: 'holdout: deaths from natural disasters (yearly, by kind)',
    kind: 'yearly',
    source: 'vega-datasets',
    data: () => {
      // A year a kind has no row had no deaths recorded: 0 from its first year on (Our World in
      // Data lists only years with a disaster), so the series step yearly and the zeros show.
      const deaths = new Map<string, Map<number, number>>();
      for (const r of csv('disasters.csv')) {
        const e = String(r.Entity);
        if (!deaths.has(e)) deaths.set(e, new Map());
        deaths.get(e)!.set(Number(r.Year), Number(r.Deaths));
      }
      const last = Math.max(...[...deaths.values()].flatMap((m) => [...m.keys()]));
      const rows: CellValue[][] = [];
      for (const [e, m] of deaths) {
        for (let y = Math.min(...m.keys()); y <= last; y++) rows.push([e, y, m.get(y) ?? 0]);
      }
      return { columns: ['entity', 'year', 'deaths'], rows };
    },
    target: 'deaths',
    orderBy: 'year',
    groupBy: ['entity'],
    window: 8,
    horizon: 5,
    period: 1,
    origins: 3,
  },
  {
    name: 'holdout: Playfair wheat price and wages (every 5 years, 2 series)',
    kind: 'yearly',
    source: 'vega-datasets',
    data: () => {
      const json = JSON.parse(readFileSync(join(VEGA, 'wheat.json'), 'utf8')) as {
        year: string;
        wheat: number;
        wages?: number;
      }[];
      return {
        columns: ['year', 'series', 'value'],
        rows: longRows(
          json.map((r) => Number(r.year)),
          { wheat: json.map((r) => r.wheat), wages: json.map((r) => r.wages ?? null) },
        ),
      };
    },
    target: 'value',
    orderBy: 'year',
    groupBy: ['series'],
    window: 6,
    horizon: 3,
    period: 1,
    origins: 3,
  },
];

/**
 * World Bank fertility rates (statsmodels' `fertility`: births per woman, a row per country and a
 * column per year 1960-2013): the countries with a value in every year the file has values for
 * (1960-2011; 2012 and 2013 are empty in every row), the World Bank's aggregates left out
 * (FERTILITY_AGGREGATES: Latin America & Caribbean, OECD members, other / Pacific island small
 * states, Sub-Saharan Africa), and of the 188 left, in the file's order, every FERTILITY_STEP-th
 * from the first: 38 countries, a sample fixed before any forecast was made.
 */
const FERTILITY_AGGREGATES = new Set(['CAA', 'LCN', 'OED', 'OSS', 'PSS']);
const FERTILITY_STEP = 5;

function fertility(): Dataset {
  const d = statsmodelsData('fertility');
  const code = d.columns.indexOf('Country Code');
  const years = d.columns
    .map((c, j) => ({ year: Number(c), j }))
    .filter(({ year, j }) => year >= 1000 && d.rows.some((r) => r[j] !== null));
  const rows: CellValue[][] = [];
  d.rows
    .filter(
      (r) => !FERTILITY_AGGREGATES.has(String(r[code])) && years.every(({ j }) => r[j] !== null),
    )
    .filter((_, i) => i % FERTILITY_STEP === 0)
    .forEach((r) => years.forEach(({ year, j }) => rows.push([r[code], year, r[j]])));
  return { columns: ['country', 'year', 'fertility'], rows };
}

/**
 * Wildlife strikes a month in the BIRD_STATES US states with the most strikes in vega's
 * birdstrikes.csv (a sample of the FAA's database, 1990-01 to 2002-07-25): every month from the
 * first to 2002-06 (July 2002 is partial), 0 where a state had none that month.
 */
const BIRD_STATES = 10;

function birdStrikes(): Dataset {
  const byState = new Map<string, Map<string, number>>();
  for (const r of csv('birdstrikes.csv')) {
    const state = String(r['Origin State']);
    const month = String(r['Flight Date']).slice(0, 7);
    if (!byState.has(state)) byState.set(state, new Map());
    const m = byState.get(state)!;
    m.set(month, (m.get(month) ?? 0) + 1);
  }
  const total = (s: string) => [...byState.get(s)!.values()].reduce((a, b) => a + b, 0);
  const states = [...byState.keys()].sort((a, b) => total(b) - total(a) || (a < b ? -1 : 1));
  const first = [...byState.values()].flatMap((m) => [...m.keys()]).sort()[0];
  const months: string[] = [];
  for (let [y, m] = first.split('-').map(Number); y * 100 + m <= 200206;) {
    months.push(`${y}-${pad(m)}`);
    [y, m] = m === 12 ? [y + 1, 1] : [y, m + 1];
  }
  const rows: CellValue[][] = [];
  for (const s of states.slice(0, BIRD_STATES))
    for (const m of months) rows.push([s, `${m}-01`, byState.get(s)!.get(m) ?? 0]);
  return { columns: ['state', 'month', 'strikes'], rows };
}

/**
 * A fresh set of short yearly series: a statsmodels dataset's columns but `skip` (its year or
 * time-trend column) as series [year, series, value], WINDOW 4 and HORIZON 3 as Grunfeld's.
 */
function shortYearly(
  name: string,
  dataset: string,
  year: (r: CellValue[]) => CellValue,
  skip: string,
  origins: number,
): SeriesSet {
  return {
    name: `fresh: ${name}`,
    kind: 'yearly',
    source: 'statsmodels',
    data: () => ({
      columns: ['year', 'series', 'value'],
      rows: statsmodelsLong(dataset, year, [skip]),
    }),
    target: 'value',
    orderBy: 'year',
    groupBy: ['series'],
    window: 4,
    horizon: 3,
    period: 1,
    origins,
  };
}

/**
 * The fresh sets: series no session had run the engine on before session 16 (see the header),
 * selected apart from the others by `TIMESERIES_SETS=fresh`.
 */
export const FRESH: SeriesSet[] = [
  {
    name: 'fresh: world fertility rates (yearly, 38 countries)',
    kind: 'yearly',
    source: 'statsmodels',
    data: fertility,
    target: 'fertility',
    orderBy: 'year',
    groupBy: ['country'],
    window: 8,
    horizon: 6,
    period: 1,
    origins: 3,
  },
  shortYearly('Longley US macro (yearly, 6 short series)', 'longley', (r) => r[6], 'YEAR', 2),
  // The dataset's TIME counts the years from 1 (1951; copper.csv's YEAR, which load drops).
  shortYearly(
    'world copper market (yearly, 5 short series)',
    'copper',
    (r) => 1950 + Number(r[5]),
    'TIME',
    3,
  ),
  {
    name: 'fresh: bird strikes by state (monthly, 10 series of counts)',
    kind: 'monthly',
    source: 'vega-datasets',
    data: birdStrikes,
    target: 'strikes',
    orderBy: 'month',
    groupBy: ['state'],
    window: 12,
    horizon: 12,
    period: 12,
    origins: 3,
  },
  {
    // Numbered trading sessions, not dates: the bench matches forecasts to the truth by timestamp,
    // and an exchange holiday is a gap the engine's business-day steps still forecast (before
    // session 16's fix its forecasts also fell on weekends: docs/forecasting.md, session 16).
    name: 'fresh: S&P 500 close and volume (trading days numbered, 2 series)',
    kind: 'daily',
    source: 'vega-datasets',
    data: () => {
      const r = csv('sp500-2000.csv');
      return {
        columns: ['session', 'series', 'value'],
        rows: longRows(
          r.map((_, i) => i + 1),
          { close: r.map((x) => x.close), volume: r.map((x) => x.volume) },
        ),
      };
    },
    target: 'value',
    orderBy: 'session',
    groupBy: ['series'],
    window: 20,
    horizon: 5,
    period: 1,
    origins: 6,
    peerRows: 500,
  },
];

/**
 * The pool TIMESERIES_SETS picks from and the words that narrow it: the hold-out sets when one of
 * its words is `holdout`, the fresh ones when one is `fresh`, else the 13.
 */
export function askedPool(): { pool: SeriesSet[]; words: string[] } {
  const asked = (process.env.TIMESERIES_SETS ?? '').split(',').filter(Boolean);
  const is = (w: string, name: string) => w.toLowerCase() === name;
  const pool = asked.some((w) => is(w, 'holdout'))
    ? HOLDOUT
    : asked.some((w) => is(w, 'fresh'))
      ? FRESH
      : SETS;
  return { pool, words: asked.filter((w) => !is(w, 'holdout') && !is(w, 'fresh')) };
}

/** The sets TIMESERIES_SETS asks for: those of askedPool() a word of it names (all when none). */
export function askedSets(): SeriesSet[] {
  const { pool, words } = askedPool();
  return pool.filter(
    (s) => words.length === 0 || words.some((w) => s.name.toLowerCase().includes(w.toLowerCase())),
  );
}
