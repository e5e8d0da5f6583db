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
//
// The simulated sets (SIM, `TIMESERIES_SETS=sim`, session 19): series drawn from the models the
// peers fit, with parameters drawn per series from fixed seeds (ETS(A,N,N), (A,A,N), (A,Ad,N),
// (A,N,A), (M,A,M), (A,A,A) with a weekly season; AR(1), AR(2), ARIMA(0,1,1), (1,1,0), the
// airline SARIMA(0,1,1)(0,1,1)12, a random walk with drift), where the generating family's peer
// is close to the best possible forecast: the engine beside it on series nobody tuned on (the
// generators and their parameter ranges: simEts, simArima and SIM below).

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
  source: 'vega-datasets' | 'statsmodels' | 'demo' | 'simulated';
  /** A simulated set's generating family's peer: the one close to the best possible forecast. */
  generator?: 'ets' | 'sarimax';
  data: () => Promise<Dataset> | Dataset;
  /**
   * A simulated set's rows with its random draws passed through `wrap` (the oracle of
   * bench/timeseries-intervals.ts: the same draws up to a forecast origin, fresh ones after it).
   */
  simulate?: (wrap: (r: SimRng) => SimRng) => Dataset;
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

// ---------------------------------------------------------------------------------------------
// The simulated sets (SIM, `TIMESERIES_SETS=sim`, session 19): series drawn from the very models
// the peers fit, their parameters drawn per series from a fixed seed, so that the best possible
// forecast is known: on a set drawn from ETS(A,Ad,N) statsmodels' ETS (which searches that form
// by AICc) is close to it, on airline SARIMA series its SARIMAX; the engine should be within noise
// of that peer (`generator`). As the M-competition simulations and the forecast package's tests.
// Each set's WINDOW, HORIZON and origins follow from its frequency and length alone, fixed before
// any forecast: yearly (30-60 rows) WINDOW 6, HORIZON 6 (the M4's), 2 origins; quarterly (40-100)
// 8 / 8 / 2; monthly (60-240) 12 / 12 / 2; daily with a weekly season (200-700) 28 / 14 / 3.
// Every series of a set ends at the same time (a panel's last date), its start set by its length.

/** A PRNG (mulberry32) and its normal draws (Box-Muller): the same draws on every machine. */
function rng(seed: number) {
  let a = seed >>> 0;
  const u = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * u();
  const int = (lo: number, hi: number) => Math.floor(uniform(lo, hi + 1));
  const normal = () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
  return { uniform, int, normal };
}
type Rng = ReturnType<typeof rng>;
/** The draws a simulated set's generators make (SeriesSet.simulate). */
export type SimRng = Rng;

type SimKind = 'yearly' | 'quarterly' | 'monthly' | 'daily';
const SIM_SHAPE: Record<
  SimKind,
  { rows: [number, number]; window: number; horizon: number; origins: number; period: number }
> = {
  yearly: { rows: [30, 60], window: 6, horizon: 6, origins: 2, period: 1 },
  quarterly: { rows: [40, 100], window: 8, horizon: 8, origins: 2, period: 4 },
  monthly: { rows: [60, 240], window: 12, horizon: 12, origins: 2, period: 12 },
  daily: { rows: [200, 700], window: 28, horizon: 14, origins: 3, period: 7 },
};

/** The i-th of n timestamps ending at the panel's last one (2025, 2025-Q4, 2025-12, 2025-12-31). */
function simTime(kind: SimKind, i: number, n: number): CellValue {
  const back = n - 1 - i;
  if (kind === 'yearly') return 2025 - back;
  if (kind === 'daily') {
    return new Date(Date.UTC(2025, 11, 31) - back * 86_400_000).toISOString().slice(0, 10);
  }
  const step = kind === 'quarterly' ? 3 : 1;
  const months = 2025 * 12 + 12 - step - back * step;
  return `${Math.floor(months / 12)}-${pad((months % 12) + 1)}-01`;
}

/** A season of m additive effects summing to 0, amplitude `a` (a sine plus noise, as most are). */
function simSeason(r: Rng, m: number, a: number): number[] {
  const phase = r.uniform(0, 2 * Math.PI);
  const s = Array.from(
    { length: m },
    (_, j) => Math.sin(phase + (2 * Math.PI * j) / m) + 0.5 * r.normal(),
  );
  const mean = s.reduce((x, y) => x + y, 0) / m;
  const sd = Math.sqrt(s.reduce((x, y) => x + (y - mean) ** 2, 0) / m) || 1;
  return s.map((x) => (a * (x - mean)) / sd);
}

/**
 * One series of n rows from an ETS form (Hyndman et al.'s state space: error A or M, trend N, A
 * or Ad, season N, A or M), its smoothing parameters drawn where the form is admissible and
 * forecastable: alpha 0.1-0.8, beta from a tenth of `betaMax` to it (at most alpha: 0.1 for yearly
 * and quarterly series, 0.02 monthly, 0.002 daily, so that a trend's wander over the series stays
 * within a few levels, as fitted betas do), gamma up to 0.3 (1 - alpha), phi 0.8-0.98; level
 * 100-1,000, the noise 1-5 % of it (additive: its standard deviation then), a trend's first step
 * moving the level by up to half of it over the series (either way; with a multiplicative error
 * from -0.1 to +0.5: such a series is positive), a season's amplitude 5-30 % of the level. A
 * multiplicative series that still reaches 0 is drawn again (ETS(M,.,.) is defined on positive
 * series: statsmodels' and R's refuse others).
 */
function simEts(r: Rng, form: string, n: number, m: number, betaMax: number): number[] {
  const [error, trend, season] = form.split(',');
  for (;;) {
    const alpha = r.uniform(0.1, 0.8);
    const beta = trend === 'N' ? 0 : Math.min(alpha, r.uniform(0.1, 1) * betaMax);
    const gamma = season === 'N' ? 0 : (1 - alpha) * r.uniform(0, 0.3);
    const phi = trend === 'Ad' ? r.uniform(0.8, 0.98) : 1;
    let level = r.uniform(100, 1000);
    const noise = r.uniform(0.01, 0.05);
    const sigma = error === 'A' ? noise * level : noise;
    let slope = trend === 'N' ? 0 : (r.uniform(error === 'A' ? -0.5 : -0.1, 0.5) * level) / n;
    const amp = r.uniform(0.05, 0.3);
    const s =
      season === 'N'
        ? []
        : season === 'A'
          ? simSeason(r, m, amp * level)
          : simSeason(r, m, amp).map((x) => 1 + x);
    const y: number[] = [];
    for (let t = 0; t < n; t++) {
      const e = sigma * r.normal();
      const sj = season === 'N' ? 0 : s[t % m];
      const base = level + phi * slope;
      if (error === 'A') {
        y.push(base + (season === 'A' ? sj : 0) + e);
        level = base + alpha * e;
        slope = phi * slope + beta * e;
        if (season === 'A') s[t % m] = sj + gamma * e;
      } else {
        // Multiplicative error (and season): y = (l + phi b) s (1 + e).
        const seasonal = season === 'M' ? sj : 1;
        y.push(base * seasonal * (1 + e));
        level = base * (1 + alpha * e);
        slope = phi * slope + beta * base * e;
        if (season === 'M') s[t % m] = sj * (1 + gamma * e);
      }
    }
    if (error === 'A' || y.every((v) => v > 0)) return y;
  }
}

/**
 * One series of n rows from a (seasonal) ARIMA: (1 - B)^d (1 - B^m)^D (y - mean) = w, w the ARMA
 * of `ar`, `ma` and the seasonal MA `sma` (at lag m) driven by normal innovations of standard
 * deviation 1-5 % of the level (100-1,000), plus `drift` innovations a step (a walk with drift);
 * a stationary part runs 100 steps before the first row; an integrated one starts at the level
 * (and a season of amplitude 5-30 % of it when D = 1).
 */
function simArima(
  r: Rng,
  n: number,
  o: {
    ar?: number[];
    ma?: number[];
    d: number;
    D?: number;
    m?: number;
    sma?: number;
    drift?: number;
  },
): number[] {
  const { ar = [], ma = [], d, D = 0, m = 1, sma = 0, drift = 0 } = o;
  const level = r.uniform(100, 1000);
  const sigma = r.uniform(0.01, 0.05) * level;
  const burn = 100;
  const e: number[] = [];
  const w: number[] = [];
  for (let t = 0; t < n + burn; t++) {
    e.push(sigma * r.normal());
    let x = e[t] + drift * sigma;
    ar.forEach((a, i) => (x += t > i ? a * w[t - 1 - i] : 0));
    ma.forEach((b, i) => (x += t > i ? b * e[t - 1 - i] : 0));
    if (sma && t >= m) {
      x += sma * e[t - m];
      ma.forEach((b, i) => (x += t > m + i ? sma * b * e[t - m - 1 - i] : 0));
    }
    w.push(x);
  }
  let y = w.slice(burn);
  for (let k = 0; k < d; k++) {
    const z = y.map(() => 0);
    for (let t = 0; t < n; t++) z[t] = (t > 0 ? z[t - 1] : 0) + y[t];
    y = z;
  }
  if (D) {
    // (1 - B^m)^-1: each row the row a season back plus what the differences give; the first
    // season's rows the season.
    const s = simSeason(r, m, r.uniform(0.05, 0.3) * level);
    const z = y.map(() => 0);
    for (let t = 0; t < n; t++) z[t] = (t < m ? s[t] : z[t - m]) + y[t];
    y = z;
  }
  return y.map((x) => x + level);
}

/** AR(2) coefficients of a stationary draw: complex roots (a damped cycle) or two real ones. */
function ar2(r: Rng): number[] {
  if (r.uniform(0, 1) < 0.5) {
    const mod = r.uniform(0.5, 0.9);
    const angle = r.uniform(0.3, 2.5);
    return [2 * mod * Math.cos(angle), -mod * mod];
  }
  const [a, b] = [r.uniform(-0.5, 0.9), r.uniform(-0.5, 0.9)];
  return [a + b, -a * b];
}

/**
 * A simulated set: `count` series of `family`, each of a length drawn from its frequency's range
 * and its parameters drawn by `draw` (series s of seed `seed`: the same rows on every run).
 */
function simSet(
  family: string,
  kind: SimKind,
  count: number,
  seed: number,
  generator: 'ets' | 'sarimax',
  draw: (r: Rng, n: number, m: number) => number[],
): SeriesSet {
  const shape = SIM_SHAPE[kind];
  const m = kind === 'daily' ? 7 : shape.period;
  const simulate = (wrap: (r: Rng) => Rng = (r) => r): Dataset => {
    const r = wrap(rng(seed));
    const rows: CellValue[][] = [];
    for (let s = 1; s <= count; s++) {
      const n = r.int(shape.rows[0], shape.rows[1]);
      const y = draw(r, n, m);
      const key = `s${pad(s)}`;
      y.forEach((v, i) => rows.push([key, simTime(kind, i, n), Math.round(v * 1e4) / 1e4]));
    }
    return { columns: ['series', 't', 'y'], rows };
  };
  return {
    name: `sim: ${family} (${kind}, ${count} series)`,
    kind,
    source: 'simulated',
    generator,
    data: () => simulate(),
    simulate,
    target: 'y',
    orderBy: 't',
    groupBy: ['series'],
    window: shape.window,
    horizon: shape.horizon,
    period: shape.period,
    origins: shape.origins,
  };
}

/**
 * The simulated sets (see above), selected apart from the others by `TIMESERIES_SETS=sim`; each
 * names the peer that fits its generating family (`generator`).
 */
export const SIM: SeriesSet[] = [
  simSet('ETS(A,N,N)', 'yearly', 12, 1901, 'ets', (r, n) => simEts(r, 'A,N,N', n, 1, 0)),
  simSet('ETS(A,A,N)', 'yearly', 12, 1902, 'ets', (r, n) => simEts(r, 'A,A,N', n, 1, 0.1)),
  simSet('ETS(A,Ad,N)', 'quarterly', 10, 1903, 'ets', (r, n) => simEts(r, 'A,Ad,N', n, 1, 0.1)),
  simSet('ETS(A,N,A)', 'quarterly', 10, 1904, 'ets', (r, n, m) => simEts(r, 'A,N,A', n, m, 0)),
  simSet('ETS(M,A,M)', 'monthly', 10, 1905, 'ets', (r, n, m) => simEts(r, 'M,A,M', n, m, 0.02)),
  simSet('ETS(A,A,A) weekly season', 'daily', 5, 1906, 'ets', (r, n, m) =>
    simEts(r, 'A,A,A', n, m, 0.002),
  ),
  simSet('AR(1)', 'yearly', 12, 1907, 'sarimax', (r, n) =>
    simArima(r, n, { ar: [r.uniform(-0.5, 0.9)], d: 0 }),
  ),
  simSet('AR(2)', 'monthly', 10, 1908, 'sarimax', (r, n) => simArima(r, n, { ar: ar2(r), d: 0 })),
  simSet('ARIMA(0,1,1)', 'monthly', 10, 1909, 'sarimax', (r, n) =>
    simArima(r, n, { ma: [r.uniform(-0.7, 0.5)], d: 1 }),
  ),
  simSet('ARIMA(1,1,0)', 'quarterly', 10, 1910, 'sarimax', (r, n) =>
    simArima(r, n, { ar: [r.uniform(-0.5, 0.8)], d: 1 }),
  ),
  simSet('airline SARIMA(0,1,1)(0,1,1)12', 'monthly', 10, 1911, 'sarimax', (r, n, m) =>
    simArima(r, n, { ma: [r.uniform(-0.8, -0.2)], d: 1, D: 1, m, sma: r.uniform(-0.8, -0.2) }),
  ),
  simSet('random walk with drift', 'daily', 5, 1912, 'sarimax', (r, n) =>
    simArima(r, n, { d: 1, drift: r.uniform(0.2, 1) * (r.uniform(0, 1) < 0.5 ? -1 : 1) }),
  ),
];

/**
 * The pool TIMESERIES_SETS picks from and the words that narrow it: the hold-out sets when one of
 * its words is `holdout`, the fresh ones when one is `fresh`, the simulated ones when one is
 * `sim`, else the 13.
 */
export function askedPool(): { pool: SeriesSet[]; words: string[] } {
  const asked = (process.env.TIMESERIES_SETS ?? '').split(',').filter(Boolean);
  const is = (w: string, name: string) => w.toLowerCase() === name;
  const pool = asked.some((w) => is(w, 'holdout'))
    ? HOLDOUT
    : asked.some((w) => is(w, 'fresh'))
      ? FRESH
      : asked.some((w) => is(w, 'sim'))
        ? SIM
        : SETS;
  const pools = ['holdout', 'fresh', 'sim'];
  return { pool, words: asked.filter((w) => !pools.some((name) => is(w, name))) };
}

/** The sets TIMESERIES_SETS asks for: those of askedPool() a word of it names (all when none). */
export function askedSets(): SeriesSet[] {
  const { pool, words } = askedPool();
  return pool.filter(
    (s) => words.length === 0 || words.some((w) => s.name.toLowerCase().includes(w.toLowerCase())),
  );
}
