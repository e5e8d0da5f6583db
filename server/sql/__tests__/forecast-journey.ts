/**
 * The forecast journey as a tester writes it, over HTTP against one real instance: a generated
 * table (the time column a DATE, TIMESTAMP WITH TIME ZONE, ISO text with or without a zone, or an
 * integer index; quarterly to hourly; groups of different lengths and start dates, named with quotes and
 * spaces, numeric, or two GROUP BY columns; rows inserted out of order; NULL targets inside and at
 * the end of a group, duplicate rows), CREATE MODEL ... WINDOW ... HORIZON, the forecast query as
 * MindsDB's docs write it (`t.ts > LATEST`, with a group filter, the model first with LIMIT),
 * DESCRIBE and the REST describe and predict. A pure season and a line have exact continuations:
 * every shape below must give them, HORIZON rows per group, in group then time order, stamped on
 * each group's calendar after its last value, with lower <= value <= upper. The shapes are the
 * cheapest that cover what the sweep of docs/forecasting.md "Session 18 (forecast)" drew (200
 * draws); on main the NULL shapes failed (a trailing NULL target cost a group its first forecast
 * rows, one inside a group shifted the season of the rows before it) and so did the zoned text
 * (written back in UTC, so `> LATEST` compared another spelling and a quarter start at +02:00 was
 * no calendar).
 *
 * The tests run in ./forecast.test.ts on that file's instance (starting one of their own cost
 * more CPU than their five small trainings): their project, tables and models are their own
 * (project journey, files.j0-j4 and files.mist), and they read nothing else.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Rng } from '../../automl/prng';
import { sqlOk, waitComplete, waitForModel, type Harness } from '../../test/harness';

type Freq = 'yearly' | 'quarterly_start' | 'monthly_end' | 'weekly' | 'daily' | 'hourly' | 'index';
type TimeType = 'DATE' | 'TIMESTAMP' | 'TIMESTAMPTZ' | 'VARCHAR' | 'ZONED_TEXT' | 'INTEGER';
interface Shape {
  freq: Freq;
  type: TimeType;
  /** Period of the pure season (1: a line). */
  period: number;
  keys: 'text' | 'int' | 'two';
  window: number;
  horizon: number;
  /** NULL targets inside each group ('inside'), as each group's last 1-2 rows ('trailing'), or repeated rows. */
  mistake: 'none' | 'inside' | 'trailing' | 'duplicates';
  /** The frequency DESCRIBE names. */
  label: RegExp;
}

const SHAPES: Shape[] = [
  // Month ends (Feb 28/29 included), a season, quoted names, NULLs inside the groups.
  {
    freq: 'monthly_end',
    type: 'DATE',
    period: 12,
    keys: 'text',
    window: 3,
    horizon: 4,
    mistake: 'inside',
    label: /^monthly \(month-end\)$/,
  },
  // Hours with a time zone, a line, numeric keys, the last rows' targets NULL.
  {
    freq: 'hourly',
    type: 'TIMESTAMPTZ',
    period: 1,
    keys: 'int',
    window: 2,
    horizon: 3,
    mistake: 'trailing',
    label: /^hourly$/,
  },
  // Mondays as ISO text, a line, two GROUP BY columns, rows repeated.
  {
    freq: 'weekly',
    type: 'VARCHAR',
    period: 1,
    keys: 'two',
    window: 4,
    horizon: 2,
    mistake: 'duplicates',
    label: /^weekly$/,
  },
  // Quarter starts as ISO text at +02:00, a season, trailing NULLs.
  {
    freq: 'quarterly_start',
    type: 'ZONED_TEXT',
    period: 4,
    keys: 'text',
    window: 2,
    horizon: 3,
    mistake: 'trailing',
    label: /^quarterly \(month-start\)$/,
  },
  // An integer index in steps of 5, a season of 7 found in the data, NULLs inside.
  {
    freq: 'index',
    type: 'INTEGER',
    period: 7,
    keys: 'int',
    window: 5,
    horizon: 3,
    mistake: 'inside',
    label: /numeric order/,
  },
];

const DAY = 86_400_000;
const pad = (x: number, w = 2) => String(x).padStart(w, '0');
const monthEnd = (y: number, m0: number) => Date.UTC(y, m0 + 1, 0);

/** Step i of a shape's calendar: epoch ms (or the index). */
function at(f: Freq, i: number): number {
  switch (f) {
    case 'yearly':
      return Date.UTC(1990 + i, 11, 31);
    case 'quarterly_start':
      return Date.UTC(2000 + Math.floor(i / 4), 3 * (i % 4), 1);
    case 'monthly_end':
      return monthEnd(2005 + Math.floor(i / 12), i % 12);
    case 'weekly':
      return Date.UTC(2015, 0, 5) + i * 7 * DAY;
    case 'daily':
      return Date.UTC(2020, 0, 1) + i * DAY;
    case 'hourly':
      return Date.UTC(2021, 2, 1) + i * 3_600_000;
    case 'index':
      return 1000 + 5 * i;
  }
}

/** A time as the instance answers it for the column's type. */
function spell(s: Shape, v: number): string | number {
  if (s.type === 'INTEGER') return v;
  const d = new Date(v);
  const date = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (s.type === 'DATE' || s.type === 'VARCHAR') return date;
  const time = `${pad(d.getUTCHours())}:00:00`;
  // ISO text at a zone's wall clock: midnight at +02:00 is 22:00 UTC the day before.
  return s.type === 'ZONED_TEXT' ? `${date}T${time}+02:00` : `${date} ${time}`;
}

function literal(s: Shape, v: number): string {
  const x = spell(s, v);
  if (s.type === 'INTEGER') return String(x);
  if (s.type === 'TIMESTAMPTZ') return `TIMESTAMPTZ '${x}+00'`;
  return s.type === 'VARCHAR' || s.type === 'ZONED_TEXT' ? `'${x}'` : `${s.type} '${x}'`;
}

const quote = (v: string | number) =>
  typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`;
const NAMES = ["O'Brien & Co", 'north east', 'say "hi"'];

interface Group {
  keys: (string | number)[];
  start: number;
  /** Rows whose target is NULL inside the group. */
  blank: Set<number>;
  /** Rows in the table (their targets NULL from `known + 1` on). */
  n: number;
  known: number;
  value: (i: number) => number;
}

/** The table's groups (3, of different lengths and start dates) and its rows, shuffled. */
function generate(s: Shape, seed: number): { groups: Group[]; rows: string[] } {
  const rng = new Rng(seed);
  const level = 10 ** (rng.next() * 8 - 2) * (seed % 2 ? -1 : 1);
  const groups: Group[] = [];
  const rows: string[] = [];
  for (let g = 0; g < 3; g++) {
    const keys =
      s.keys === 'text' ? [NAMES[g]] : s.keys === 'int' ? [7 * g + 3] : [NAMES[g], g % 2];
    const start = Math.floor(rng.next() * 2 * s.period);
    const n = (s.freq === 'index' ? 4 : 2) * s.period + s.horizon + 6 + Math.floor(rng.next() * 10);
    const pattern = Array.from({ length: s.period }, () =>
      Number((level * (0.5 + rng.next())).toPrecision(6)),
    );
    const slope = Number((level * (rng.next() - 0.5) * 0.05).toPrecision(4));
    const value = (i: number) =>
      s.period > 1 ? pattern[(start + i) % s.period] : level + slope * i;
    const blank = new Set<number>();
    if (s.mistake === 'inside') {
      blank.add(1 + Math.floor(rng.next() * (n - 3)));
      blank.add(n - 2 - Math.floor(rng.next() * s.period));
    }
    let known = n - 1;
    if (s.mistake === 'trailing') known -= 1 + (g % 2);
    for (let i = 0; i < n; i++) {
      const y = i > known || blank.has(i) ? 'NULL' : String(value(i));
      const row = `(${literal(s, at(s.freq, start + i))}, ${keys.map(quote).join(', ')}, ${y})`;
      rows.push(row);
      if (s.mistake === 'duplicates' && i % 5 === 2) rows.push(row);
    }
    groups.push({ keys, start, blank, n, known, value });
  }
  for (let i = rows.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [rows[i], rows[j]] = [rows[j], rows[i]];
  }
  return { groups, rows };
}

const objects = (r: { column_names: string[]; data: unknown[][] }) =>
  r.data.map((row) => Object.fromEntries(r.column_names.map((c, i) => [c, row[i]]))) as Record<
    string,
    any
  >[];

/** Registers the journey's tests on the instance `harness` returns once the file's set-up ran. */
export function forecastJourney(harness: () => Harness): void {
  describe('the forecast journey through SQL and REST', () => {
    let h: Harness;

    beforeAll(async () => {
      h = harness();
      await sqlOk(h, 'CREATE PROJECT journey');
    });

    it('continues each group exactly, on its calendar, HORIZON rows in group then time order', async () => {
      const made = SHAPES.map((s, k) => ({ s, name: `j${k}`, ...generate(s, 18_000 + k) }));
      for (const { s, name, rows } of made) {
        const cols = s.keys === 'two' ? 'g, h' : 'g';
        const ts = s.type === 'VARCHAR' || s.type === 'ZONED_TEXT' ? 'ts::VARCHAR AS ts' : 'ts';
        await sqlOk(
          h,
          `CREATE TABLE files.${name} AS SELECT ${ts}, ${cols}, y::DOUBLE AS y FROM (VALUES ${rows.join(', ')}) v(ts, ${cols}, y)`,
        );
        await sqlOk(
          h,
          `CREATE MODEL journey.${name} FROM files (SELECT * FROM ${name}) PREDICT y ORDER BY ts GROUP BY ${cols} WINDOW ${s.window} HORIZON ${s.horizon}`,
        );
      }
      for (const { s, name, groups } of made) {
        await waitComplete(h, name, { project: 'journey' });
        const gcols = s.keys === 'two' ? ['g', 'h'] : ['g'];
        const select = `SELECT m.ts, ${gcols.map((c) => `m.${c}`).join(', ')}, m.y, m.y_min, m.y_max`;
        const out = objects(
          await sqlOk(
            h,
            `${select} FROM files.${name} AS t JOIN journey.${name} AS m WHERE t.ts > LATEST`,
          ),
        );
        const keyOf = (r: Record<string, any>) => gcols.map((c) => r[c]);
        // Group by group (in the order of their values), each in time order.
        const sorted = [...groups].sort((a, b) => (a.keys[0] < b.keys[0] ? -1 : 1));
        const want = sorted.flatMap((g) =>
          Array.from({ length: s.horizon }, (_, j) => [
            spell(s, at(s.freq, g.start + g.known + 1 + j)),
            ...g.keys,
          ]),
        );
        expect(
          out.map((r) => [r.ts, ...keyOf(r)]),
          `${name} ${s.freq}`,
        ).toEqual(want);
        sorted.forEach((g, k) => {
          const scale = Math.max(
            ...Array.from({ length: g.n + s.horizon }, (_, i) => Math.abs(g.value(i))),
          );
          out.slice(k * s.horizon, (k + 1) * s.horizon).forEach((r, j) => {
            expect(
              Math.abs(r.y - g.value(g.known + 1 + j)) / scale,
              `${name} ${g.keys} step ${j + 1}`,
            ).toBeLessThan(1e-6);
            expect(r.y_min).toBeLessThanOrEqual(r.y);
            expect(r.y_max).toBeGreaterThanOrEqual(r.y);
          });
        });
        // A filter on one group (its name quoted) answers that group's rows; the model first with
        // LIMIT, the first group's.
        const one = groups[1];
        const cond = gcols.map((c, i) => `t.${c} = ${quote(one.keys[i])}`).join(' AND ');
        const only = objects(
          await sqlOk(
            h,
            `${select} FROM files.${name} AS t JOIN journey.${name} AS m WHERE t.ts > LATEST AND ${cond}`,
          ),
        );
        expect(only).toEqual(
          out.filter((r) => JSON.stringify(keyOf(r)) === JSON.stringify(one.keys)),
        );
        if (s.mistake === 'trailing') {
          // `= <the first NULL row's time>`: the forecast from the rows up to it, the same rows.
          const first = literal(s, at(s.freq, one.start + one.known + 1));
          expect(
            objects(
              await sqlOk(
                h,
                `${select} FROM files.${name} AS t JOIN journey.${name} AS m WHERE t.ts = ${first} AND ${cond}`,
              ),
            ),
          ).toEqual(only);
        }
        const limited = objects(
          await sqlOk(
            h,
            `${select} FROM journey.${name} AS m JOIN files.${name} AS t WHERE t.ts > LATEST LIMIT ${s.horizon}`,
          ),
        );
        expect(limited).toEqual(out.slice(0, s.horizon));
        // DESCRIBE and the REST describe; the REST predict from that group's rows.
        const [info] = objects(await sqlOk(h, `DESCRIBE journey.${name}`));
        expect(info.timeseries.frequency).toMatch(s.label);
        expect(info.timeseries.groups).toBe(3);
        expect(info.timeseries.interpolated_targets).toBe(s.mistake === 'inside' ? 6 : 0);
        expect(info.timeseries.missing_periods).toBe(0);
        const described = await h.get(`/api/projects/journey/models/${name}/describe`);
        expect(described.status).toBe(200);
        expect(described.body[0].timeseries).toMatchObject({
          window: s.window,
          horizon: s.horizon,
        });
        const history = objects(await sqlOk(h, `SELECT * FROM files.${name} AS t WHERE ${cond}`));
        const predicted = await h.post(`/api/projects/journey/models/${name}/predict`, {
          data: history,
        });
        expect(predicted.status).toBe(200);
        expect(predicted.body.map((r: any) => [r.ts, ...keyOf(r), r.y])).toEqual(
          only.map((r) => [r.ts, ...keyOf(r), r.y]),
        );
        // Without a condition on the time: the group's rows in time order (repeated rows each), a
        // NULL target's row in its place with the forecast made for it (exact, a season or more
        // in), then the forecast, one row per time: a trailing NULL target's row is the forecast
        // row of its time (the data's columns that row's), not a history row with no value.
        const rows = objects(
          await sqlOk(
            h,
            `SELECT t.y AS truth, t.ts AS data_ts, m.ts, m.y FROM files.${name} AS t JOIN journey.${name} AS m WHERE ${cond}`,
          ),
        );
        const stamps = (from: number) =>
          Array.from({ length: one.known + 1 - from }, (_, i) => from + i).flatMap((i) =>
            Array(s.mistake === 'duplicates' && i % 5 === 2 ? 2 : 1).fill(
              spell(s, at(s.freq, one.start + i)),
            ),
          );
        const blanks = one.n - 1 - one.known;
        const ahead = only.map((r, j) => [j < blanks ? r.ts : null, r.ts, r.y]);
        const tail = (r: Record<string, any>[]) => r.slice(r.length - s.horizon);
        expect(rows.map((r) => r.ts)).toEqual([...stamps(0), ...only.map((r) => r.ts)]);
        expect(tail(rows).map((r) => [r.data_ts, r.ts, r.y])).toEqual(ahead);
        expect(tail(rows).every((r) => r.truth === null)).toBe(true);
        // A date range: its history rows, then the same forecast.
        const range = objects(
          await sqlOk(
            h,
            `SELECT t.ts AS data_ts, m.ts, m.y FROM files.${name} AS t JOIN journey.${name} AS m WHERE ${cond} AND t.ts >= ${literal(s, at(s.freq, one.start + one.known - 1))}`,
          ),
        );
        expect(range.map((r) => r.ts)).toEqual([
          ...stamps(one.known - 1),
          ...only.map((r) => r.ts),
        ]);
        expect(tail(range).map((r) => [r.data_ts, r.ts, r.y])).toEqual(ahead);
        if (s.mistake === 'trailing') {
          // `<= LATEST`: LATEST is the last value's time here too, so the history up to it.
          const upTo = objects(
            await sqlOk(
              h,
              `SELECT m.ts FROM files.${name} AS t JOIN journey.${name} AS m WHERE ${cond} AND t.ts <= LATEST`,
            ),
          );
          expect(upTo.map((r) => r.ts)).toEqual(stamps(0));
        }
        for (const i of one.blank) {
          expect(rows[i].truth).toBeNull();
          if (i < Math.max(s.window, s.period)) continue;
          expect(Math.abs(rows[i].y - one.value(i)) / Math.abs(one.value(i))).toBeLessThan(1e-6);
        }
      }
    });

    it("answers a tester's mistakes with the documented handling or a clear error, and keeps serving", async () => {
      const { rows } = generate(SHAPES[0], 18_100);
      await sqlOk(
        h,
        // One month of 'north east' has no row at all (a missing period, not a NULL target).
        `CREATE TABLE files.mist AS SELECT ts, g, y::DOUBLE AS y FROM (VALUES ${rows.join(', ')}) v(ts, g, y)
       QUALIFY NOT (g = 'north east' AND row_number() OVER (PARTITION BY g ORDER BY ts) = 4)`,
      );
      const create = (name: string, from: string, clauses: string) =>
        h.sql(
          `CREATE MODEL journey.${name} FROM files (${from}) PREDICT y ORDER BY ts GROUP BY g ${clauses}`,
        );
      // HORIZON 0 or a fraction: refused at CREATE as bad input.
      for (const [horizon, shown] of [
        ['0', '0'],
        ['2.5', '2.5'],
      ]) {
        expect(
          await create('bad', 'SELECT * FROM mist', `WINDOW 3 HORIZON ${horizon}`),
        ).toMatchObject({
          type: 'error',
          error_code: 3,
          error_message: `HORIZON must be a whole number from 1 to 10000, got ${shown}`,
        });
      }
      // A target of words: the training fails, naming a value and its row.
      await create(
        'words',
        "SELECT ts, g, CASE WHEN y IS NULL THEN NULL ELSE 'many' END AS y FROM mist",
        'WINDOW 3',
      );
      expect(await waitForModel(h, 'words', { project: 'journey' })).toMatchObject({
        status: 'error',
        error: expect.stringMatching(
          /^time-series forecasting predicts numbers, but target 'y' holds many in row \d+$/,
        ),
      });
      // A model name USING cannot take: the training fails, listing the ones it can.
      await create('prophet', 'SELECT * FROM mist', "WINDOW 3 USING model = 'prophet'");
      expect(await waitForModel(h, 'prophet', { project: 'journey' })).toMatchObject({
        status: 'error',
        error: expect.stringMatching(
          /^USING model of a time-series model must be 'auto', 'gbm' or one of its candidates: seasonal_naive, naive, drift, theta, ets, arima/,
        ),
      });
      // HORIZON beyond the data trains (a forecast may reach further than the history is long).
      await create('mist', 'SELECT * FROM mist', 'WINDOW 3 HORIZON 40');
      await waitComplete(h, 'mist', { project: 'journey' });
      // The missing period is read as documented (consecutive rows, consecutive steps), and said.
      const [info] = objects(await sqlOk(h, 'DESCRIBE journey.mist'));
      expect(info.timeseries.missing_periods).toBe(1);
      expect(JSON.stringify(info.warnings)).toMatch(
        /1 period has no row in 1 group \(the first: group \(g = \\"north east\\"\) between \d{4}-\d\d-\d\d and \d{4}-\d\d-\d\d\): consecutive rows are read as consecutive steps/,
      );
      // A group with fewer rows than WINDOW: the forecast names it (SQL and REST, bad input).
      const short = await h.sql(
        `SELECT m.ts, m.y FROM (SELECT * FROM files.mist WHERE g <> 'north east' OR ts > (SELECT max(ts) - INTERVAL 2 MONTH FROM files.mist WHERE g = 'north east')) AS t JOIN journey.mist AS m WHERE t.ts > LATEST`,
      );
      expect(short).toMatchObject({ type: 'error', error_code: 3 });
      expect(short.error_message).toMatch(
        /^group \(g = "north east"\) has [12] rows?, fewer than WINDOW 3: .*leave the group out with a condition on it/,
      );
      const rest = await h.post('/api/projects/journey/models/mist/predict', [
        { ts: '2010-01-31', g: 'north east', y: 1 },
      ]);
      expect(rest.status).toBe(400);
      expect(rest.body.error_message).toMatch(
        /^group \(g = "north east"\) has 1 row, fewer than WINDOW 3/,
      );
      // Still serving: the whole forecast, 40 rows for each of the 3 groups.
      const all = await sqlOk(
        h,
        'SELECT count(*) AS n FROM files.mist AS t JOIN journey.mist AS m WHERE t.ts > LATEST',
      );
      expect(all.data).toEqual([[120]]);
    });
  });
}
