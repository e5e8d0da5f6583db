/**
 * The monitoring attributes of DESCRIBE (issue 27), in MindsDB's form for model introspection
 * (`DESCRIBE m.attribute`), with RETRAIN's `FROM db (query)` for the data and USING for options:
 *
 *   DESCRIBE m[.version].drift [FROM db (SELECT ...)] [USING psi = 0.2, p_value = 0.05, importance = 0.3]
 *   DESCRIBE m[.version].effects [USING column = 'sqft', class = 'Yes', top = 5]
 *   DESCRIBE m[.version].diff [FROM db (SELECT ...)] [USING against = 2 | 'other_model.1', limit = 50]
 *
 * `drift` without FROM shows the version's latest report. Each answers a table whose first row
 * is the summary (`column = '*'`, `row` NULL); the REST routes give the same reports as JSON.
 */
import type { DriftReport, DiffReport, EffectsReport } from '../../../contract';
import type { ModelRef } from '../../models/registry';
import { badInput } from '../../errors';
import type { JsonValue } from '../../engine/values';
import type { StatementEnv } from '../types';
import type { MindsStatement, UsingValue } from '../syntax/statement';
import type { TrainingSource } from '../../models/training-data';
import type { StatementOutput } from './output';

export const MONITORING_ATTRIBUTES = ['drift', 'effects', 'diff'] as const;
type Attribute = (typeof MONITORING_ATTRIBUTES)[number];

export const isMonitoringAttribute = (a: string | undefined): a is Attribute =>
  a !== undefined && (MONITORING_ATTRIBUTES as readonly string[]).includes(a.toLowerCase());

type Describe = Extract<MindsStatement, { kind: 'describe' }>;

const ALLOWED: Record<Attribute, string[]> = {
  drift: ['psi', 'p_value', 'importance'],
  effects: ['column', 'class', 'top'],
  diff: ['against', 'limit'],
};

/** USING as lower-case keys, unknown keys refused with the allowed ones. */
function options(attr: Attribute, using: Record<string, UsingValue> | undefined) {
  const out: Record<string, UsingValue> = {};
  for (const [k, v] of Object.entries(using ?? {})) {
    const key = k.toLowerCase();
    if (!ALLOWED[attr].includes(key)) {
      throw badInput(
        `Unknown USING option '${k}' for DESCRIBE ... .${attr}; allowed: ${ALLOWED[attr].join(', ')}`,
      );
    }
    out[key] = v;
  }
  return out;
}

function numberOption(o: Record<string, UsingValue>, key: string): number | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  const x = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(x))
    throw badInput(`USING ${key} must be a number, got ${JSON.stringify(v)}`);
  return x;
}

function textOption(o: Record<string, UsingValue>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'object')
    throw badInput(`USING ${key} must be a value, got ${JSON.stringify(v)}`);
  return String(v);
}

const table = (columns: [string, string][], data: JsonValue[][]): StatementOutput => ({
  kind: 'result',
  result: {
    type: 'table',
    column_names: columns.map((c) => c[0]),
    column_types: columns.map((c) => c[1]),
    data,
  },
});

const fmt = (x: number | null | undefined) =>
  x === null || x === undefined
    ? '-'
    : Math.abs(x) >= 1000
      ? Math.round(x).toLocaleString('en-US')
      : String(Number(x.toPrecision(4)));
const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/** What one drifted column's row says besides its numbers. */
function driftDetail(c: DriftReport['columns'][number]): string {
  if (!c.present) return "not in today's data: every row counts as missing";
  const parts: string[] = [];
  if (c.mean) parts.push(`mean ${fmt(c.mean.reference)} -> ${fmt(c.mean.current)}`);
  if (c.out_of_range && c.out_of_range.below + c.out_of_range.above > 0)
    parts.push(`${pct(c.out_of_range.below + c.out_of_range.above)} outside the training range`);
  if (c.new_categories && c.new_categories.rows > 0)
    parts.push(
      `new: ${c.new_categories.values.join(', ')} (${pct(c.new_categories.share)} of rows)`,
    );
  if (c.missing.current > c.missing.reference + 0.01)
    parts.push(`missing ${pct(c.missing.reference)} -> ${pct(c.missing.current)}`);
  return parts.join('; ');
}

function driftTable(r: DriftReport, target: string): StatementOutput {
  const cols: [string, string][] = [
    ['column', 'VARCHAR'],
    ['importance', 'DOUBLE'],
    ['psi', 'DOUBLE'],
    ['test', 'VARCHAR'],
    ['statistic', 'DOUBLE'],
    ['p_value', 'DOUBLE'],
    ['n_reference', 'BIGINT'],
    ['n_current', 'BIGINT'],
    ['level', 'VARCHAR'],
    ['detail', 'VARCHAR'],
  ];
  const rows: JsonValue[][] = [
    [
      '*',
      r.summary.drifted_importance,
      null,
      null,
      null,
      null,
      r.rows.reference,
      r.rows.current,
      r.summary.verdict,
      `${r.summary.sentence} (${r.computed_at.slice(0, 16).replace('T', ' ')} UTC)`,
    ],
  ];
  const p = r.predictions;
  if (p) {
    rows.push([
      `${target} (predicted)`,
      null,
      p.psi,
      p.test.name,
      p.test.statistic,
      p.test.p_value,
      p.test.n_reference,
      p.test.n_current,
      p.level,
      p.mean ? `mean ${fmt(p.mean.reference)} -> ${fmt(p.mean.current)}` : '',
    ]);
  }
  for (const c of r.columns) {
    rows.push([
      c.column,
      c.importance,
      c.psi,
      c.test.name,
      c.test.statistic,
      c.test.p_value,
      c.test.n_reference,
      c.test.n_current,
      c.level,
      driftDetail(c),
    ]);
  }
  for (const s of r.skipped)
    rows.push([s.column, null, null, null, null, null, null, null, 'skipped', s.reason]);
  return table(cols, rows);
}

function effectsTable(r: EffectsReport): StatementOutput {
  const cols: [string, string][] = [
    ['column', 'VARCHAR'],
    ['value', 'VARCHAR'],
    ['average', 'DOUBLE'],
    ['ice_min', 'DOUBLE'],
    ['ice_max', 'DOUBLE'],
    ['rows', 'BIGINT'],
  ];
  const rows: JsonValue[][] = [['*', r.output, null, null, null, r.rows]];
  for (const c of r.curves) {
    c.grid.forEach((g, j) => {
      const at = c.ice.map((line) => line[j]);
      rows.push([
        c.column,
        String(g),
        c.average[j],
        at.length ? Math.min(...at) : null,
        at.length ? Math.max(...at) : null,
        c.distribution[j]?.count ?? 0,
      ]);
    });
  }
  for (const s of r.skipped) rows.push([s.column, null, null, null, null, null]);
  return table(cols, rows);
}

function diffTable(r: DiffReport): StatementOutput {
  const cols: [string, string][] = [
    ['row', 'BIGINT'],
    ['before', 'VARCHAR'],
    ['after', 'VARCHAR'],
    ['change', 'DOUBLE'],
    ['flipped', 'BOOLEAN'],
    ['moved', 'VARCHAR'],
    ['inputs', 'JSON'],
  ];
  const label = (s: DiffReport['before']) => `${s.model}.${s.version}`;
  const rows: JsonValue[][] = [
    [null, label(r.before), label(r.after), r.mean_change, null, r.summary, null],
  ];
  for (const x of r.changed_rows) {
    rows.push([
      x.row,
      x.before === null ? null : String(x.before),
      x.after === null ? null : String(x.after),
      x.change,
      x.flipped ?? null,
      x.moved.map((m) => `${m.column} ${m.change >= 0 ? '+' : ''}${fmt(m.change)}`).join(', '),
      JSON.stringify(x.inputs),
    ]);
  }
  return table(cols, rows);
}

export async function describeMonitoring(
  env: StatementEnv,
  s: Describe,
  target: { ref: ModelRef; attribute?: string },
  /** The FROM of the statement, resolved as RETRAIN resolves it. */
  source: TrainingSource | null,
): Promise<StatementOutput> {
  const attr = target.attribute!.toLowerCase() as Attribute;
  const m = env.monitoring;
  if (!m) throw badInput(`DESCRIBE ... .${attr} is not available in this instance`);
  const o = options(attr, s.using);
  if (attr === 'drift') {
    if (!source) {
      const latest = m.drift.latest(target.ref);
      if (!latest) {
        throw badInput(
          `No drift report yet for this version: name today's data, e.g. DESCRIBE ${s.name.join('.')} FROM <database> (SELECT * FROM <table>)`,
        );
      }
      return driftTable(latest, env.models.get(target.ref).target);
    }
    const r = await m.drift.compute(target.ref, {
      query: source.select,
      db: source.fromDb,
      thresholds: {
        psi: numberOption(o, 'psi'),
        p_value: numberOption(o, 'p_value'),
        importance: numberOption(o, 'importance'),
      },
    });
    return driftTable(r, env.models.get(target.ref).target);
  }
  if (attr === 'effects') {
    if (source)
      throw badInput(
        'DESCRIBE ... .effects reads the training sample kept with the version: it takes no FROM',
      );
    const top = numberOption(o, 'top');
    return effectsTable(
      await m.effects.compute(target.ref, {
        column: textOption(o, 'column'),
        class: textOption(o, 'class'),
        top: top === undefined ? undefined : Math.max(1, Math.floor(top)),
      }),
    );
  }
  const limit = numberOption(o, 'limit');
  return diffTable(
    await m.diff.compute(target.ref, {
      against: textOption(o, 'against'),
      ...(source ? { query: source.select, db: source.fromDb } : {}),
      limit: limit === undefined ? undefined : Math.min(1000, Math.max(1, Math.floor(limit))),
    }),
  );
}
