// The ONNX export on small hand-built tables that reach every part of a model: each input kind
// (numbers, categories as text / numbers / booleans, dates, categories past the 253 codes with
// their target encoding), missing and unseen values, each task and decision rule, linear-only,
// GBM-only and finetuned models, the reduced model and per-pattern calibration; and the refusals.

import { describe, expect, it } from 'vitest';
import {
  type CellValue,
  type Dataset,
  type ModelArtifact,
  OnnxExportError,
  exportOnnx,
  finetune,
  train,
  trainForecaster,
} from '../../index';
import { gauss } from '../../__tests__/helpers';
import { Rng } from '../../prng';
import { monthlySales } from '../../timeseries/__tests__/helpers';
import { ticketTable } from '../../../../bench/automl-data';
import { decodeModel } from '../proto';
import { expectOnnxEqual } from './helpers';

const PLANS = ['free', 'basic', 'pro', 'team'];

/**
 * Every input kind: a number with gaps, a text category, a boolean, a number code, a date, a
 * category of 300 levels (past the 253 codes: target-encoded). `task` picks the target.
 */
function mixed(n: number, seed: number, task: 'regression' | 'binary' | 'multiclass'): Dataset {
  const rng = new Rng(seed);
  const levels = Array.from({ length: 300 }, (_, i) => `shop_${i}`);
  const effect = levels.map(() => gauss(rng));
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = rng.next() < 0.1 ? null : rng.next() * 10;
    const plan = rng.next() < 0.05 ? null : PLANS[rng.int(PLANS.length)];
    const member = rng.next() < 0.05 ? null : rng.next() < 0.4;
    const code = 1 + rng.int(4);
    const day = rng.next() < 0.05 ? null : Math.floor(rng.next() * 3650) + 16436; // 2015..2024
    const hour = rng.int(24);
    const date =
      day === null
        ? null
        : new Date(day * 86_400_000 + hour * 3_600_000)
            .toISOString()
            .slice(0, i % 2 ? 10 : 19)
            .replace('T', ' ');
    const shop = rng.int(levels.length);
    const month = day === null ? 6 : new Date(day * 86_400_000).getUTCMonth();
    const z =
      (x ?? 5) * 0.8 +
      PLANS.indexOf(plan ?? 'free') +
      (member ? 1.5 : 0) -
      0.5 * code +
      (month < 3 ? 2 : 0) +
      1.5 * effect[shop] +
      gauss(rng);
    const y =
      task === 'regression'
        ? z
        : task === 'binary'
          ? z > 6
            ? 'yes'
            : 'no'
          : ['lo', 'mid', 'hi'][z < 4 ? 0 : z < 8 ? 1 : 2];
    rows.push([x, plan, member, code, date, levels[shop], y]);
  }
  return { columns: ['x', 'plan', 'member', 'code', 'since', 'shop', 'y'], rows };
}

/** Held-out rows with what users send besides clean values: gaps, unseen and odd spellings. */
function awkward(d: Dataset): Dataset {
  const rows = d.rows.map((r, i) => {
    const out = r.slice();
    if (i % 7 === 0) out[0] = null; // x
    if (i % 11 === 0) out[1] = 'enterprise'; // unseen category
    if (i % 13 === 0) out[1] = ''; // blank = missing
    if (i % 5 === 0) out[2] = ['Yes', 'no', 'TRUE', 'f', '1', 'N'][i % 6]; // boolean spellings
    if (i % 17 === 0) out[3] = 9; // unseen code
    if (i % 19 === 0) out[4] = null; // no date
    if (i % 23 === 0) out[5] = 'shop_new'; // unseen level
    return out;
  });
  return { columns: d.columns, rows };
}

const split = (d: Dataset, nTrain: number) => ({
  train: { columns: d.columns, rows: d.rows.slice(0, nTrain) },
  test: { columns: d.columns, rows: d.rows.slice(nTrain) },
});

const fast = { max_iterations: 60 };

describe('ONNX export: predictions equal the engine', () => {
  it('a regression reading every input kind, on clean and awkward rows (intervals included)', async () => {
    const s = split(mixed(1800, 1, 'regression'), 1500);
    const a = train(s.train, { target: 'y', using: fast });
    const kinds = a.encoders.map((e) => e.kind);
    expect(kinds).toEqual([
      'numeric',
      'categorical',
      'categorical',
      'categorical',
      'datetime',
      'categorical',
    ]);
    expect(a.encoders[5].kind === 'categorical' && a.encoders[5].targetEncoding).toBeTruthy();
    expect((await expectOnnxEqual(a, s.test)).rows).toBe(300);
    expect((await expectOnnxEqual(a, awkward(s.test))).rows).toBe(300);
  });

  it("a binary classifier under both decision rules ('balanced', 'argmax')", async () => {
    const s = split(mixed(1800, 2, 'binary'), 1500);
    for (const decision of ['balanced', 'argmax']) {
      const a = train(s.train, { target: 'y', using: { ...fast, decision } });
      expect(a.settings.decision).toBe(decision);
      await expectOnnxEqual(a, awkward(s.test));
    }
  });

  it('a multiclass classifier (vector leaves, one target encoding per class)', async () => {
    const s = split(mixed(1800, 3, 'multiclass'), 1500);
    const a = train(s.train, { target: 'y', using: fast });
    expect(a.model.gbm?.leafDim).toBe(3);
    await expectOnnxEqual(a, awkward(s.test));
  });

  it('linear-only and GBM-only models, and trees finetuned on top of a linear model', async () => {
    const s = split(mixed(1200, 4, 'regression'), 1000);
    const lin = train(s.train, { target: 'y', using: { model: 'linear' } });
    expect(lin.model.gbm).toBeNull();
    await expectOnnxEqual(lin, awkward(s.test));
    const gbm = train(s.train, { target: 'y', using: { ...fast, model: 'gbm' } });
    expect(gbm.model.linear).toBeNull();
    await expectOnnxEqual(gbm, awkward(s.test));
    const tuned = finetune(lin, s.train, { using: { max_iterations: 20 } });
    expect(tuned.model.gbm && tuned.model.linear).toBeTruthy();
    await expectOnnxEqual(tuned, awkward(s.test));
  });

  it('rows missing the dominant input: the reduced model and per-pattern intervals', async () => {
    const rng = new Rng(7);
    const rows: CellValue[][] = [];
    // Past 3,000 rows a model is validated on a split (not cross-fitted), which keeps a reduced model.
    for (let i = 0; i < 3600; i++) {
      const a = rng.next() * 100;
      const b = rng.next() * 10;
      rows.push([a, b, PLANS[rng.int(4)], (a > 50 ? 300 : 0) + (a * a) / 10 + b + gauss(rng)]);
    }
    const s = split({ columns: ['a', 'b', 'plan', 'y'], rows }, 3300);
    const art: ModelArtifact = train(s.train, { target: 'y', using: fast });
    expect(art.model.reduced?.column).toBe('a');
    expect(art.calibration.missing?.halfWidths?.length).toBeGreaterThan(1);
    const blanked = {
      columns: s.test.columns,
      rows: s.test.rows.map((r, i) =>
        i % 2 ? [null, r[1], r[2], r[3]] : [r[0], null, null, r[3]],
      ),
    };
    await expectOnnxEqual(art, blanked);
  });
});

describe('ONNX export: the file', () => {
  it('states its opsets and names one [N, 1] input per column, typed by how the column is read', () => {
    const a = train(split(mixed(600, 5, 'binary'), 600).train, {
      target: 'y',
      using: { max_iterations: 10 },
    });
    const m = decodeModel(exportOnnx(a, { name: 'shops', version: 3 }).bytes) as {
      ir_version: number;
      model_version: number;
      opset_import: { domain?: string; version: number }[];
      graph: { input: { name: string; type: unknown }[]; output: { name: string }[] };
      metadata_props: { key: string; value: string }[];
    };
    expect(m.ir_version).toBe(10);
    expect(m.model_version).toBe(3);
    expect(m.opset_import.map((o) => [o.domain ?? '', o.version])).toEqual([
      ['', 21],
      ['ai.onnx.ml', 5],
    ]);
    const elem = (t: unknown) =>
      (t as { tensor_type: { elem_type: number } }).tensor_type.elem_type;
    // 11 = double, 8 = string (onnx.proto TensorProto.DataType).
    expect(m.graph.input.map((i) => [i.name, elem(i.type)])).toEqual([
      ['x', 11],
      ['plan', 8],
      ['member', 8],
      ['code', 11],
      ['since', 11],
      ['shop', 8],
    ]);
    expect(m.graph.output.map((o) => o.name)).toEqual(['y', 'y_confidence', 'y_probabilities']);
    const meta = Object.fromEntries(m.metadata_props.map((p) => [p.key, p.value]));
    expect(meta.task).toBe('binary');
    expect(JSON.parse(meta.classes)).toEqual(['no', 'yes']);
  });
});

describe('ONNX export: what cannot be expressed is refused', () => {
  it('a model with a free-text input names the column and how to export without it', () => {
    const a = train(ticketTable(600), { target: 'topic', using: { max_iterations: 10 } });
    expect(a.encoders.find((e) => e.column === 'title')?.kind).toBe('text');
    const err = (() => {
      try {
        exportOnnx(a);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(OnnxExportError);
    expect((err as Error).message).toBe(
      "models with free-text inputs cannot be exported to ONNX: 'title' is encoded as text (length, word count and a TF-IDF score of its words), and ONNX has no standard operators for that tokenisation; retrain with USING ignore_columns = ['title'] to export",
    );
  });

  it('a time-series model', () => {
    const a = trainForecaster(monthlySales(['a', 'b'], 48, 5), {
      target: 'sales',
      orderBy: 'month',
      groupBy: ['store'],
      window: 6,
      horizon: 3,
    });
    expect(() => exportOnnx(a)).toThrow(
      /^time-series models \(ORDER BY \.\.\. WINDOW \.\.\. HORIZON\) cannot be exported to ONNX/,
    );
  });
});
