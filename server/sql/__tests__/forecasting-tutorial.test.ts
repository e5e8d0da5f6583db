/**
 * The time-series tutorial of docs/forecasting.md, run verbatim: its SQL blocks (between the
 * `tutorial:timeseries` markers) go to a real instance over HTTP in order, the status query is
 * polled as the text says, and the answers are checked against what the page claims (the
 * documented forecast's dates, the saved table). A change to the page or to the instance that
 * breaks the tutorial fails here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollPause, startHarness, type Harness } from '../../test/harness';
import { trainingCache } from '../../test/training-cache';

const TUTORIAL = path.join(__dirname, '../../../docs/forecasting.md');

/** The tutorial's SQL blocks and the markdown tables after them, in order. */
function tutorial(): { sql: string; table: string[][] | null }[] {
  const text = fs.readFileSync(TUTORIAL, 'utf8');
  const start = text.indexOf('<!-- tutorial:timeseries -->');
  const end = text.indexOf('<!-- /tutorial:timeseries -->');
  if (start < 0 || end < start)
    throw new Error('docs/forecasting.md has no time-series tutorial markers');
  const part = text.slice(start, end);
  const out: { sql: string; table: string[][] | null }[] = [];
  const re = /```sql\n([\s\S]*?)```\n((?:\s*\n)*(\|.*\|\n)+)?/g;
  for (let m = re.exec(part); m; m = re.exec(part)) {
    const table = m[2]
      ? m[2]
          .trim()
          .split('\n')
          .filter((l) => !/^\|\s*-/.test(l))
          .map((l) =>
            l
              .split('|')
              .slice(1, -1)
              .map((c) => c.trim()),
          )
      : null;
    out.push({ sql: m[1].trim(), table });
  }
  return out;
}

let h: Harness;
const blocks = tutorial();
const answers: any[] = [];

beforeAll(async () => {
  h = await startHarness(trainingCache());
  for (const b of blocks) {
    let r = await h.sql(b.sql);
    // "Wait until its status is complete": the status query, polled.
    for (let i = 0; /^SELECT status FROM/i.test(b.sql) && i < 2400; i++) {
      if (r.type === 'table' && ['complete', 'error'].includes(r.data[0]?.[0])) break;
      await pollPause(h);
      r = await h.sql(b.sql);
    }
    answers.push(r);
  }
});

afterAll(async () => {
  await h?.close();
});

describe('the docs/forecasting.md time-series tutorial, verbatim', () => {
  it('has its six statements, and every one runs without an error', () => {
    expect(blocks.map((b) => b.sql.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'CREATE MODEL',
      'SELECT status',
      'DESCRIBE mindsdb.house_sales_model;',
      'SELECT m.saledate',
      'CREATE TABLE',
      'SELECT *',
    ]);
    for (const [i, r] of answers.entries()) {
      expect(r.type, `${blocks[i].sql}\n-> ${r.error_message}`).not.toBe('error');
    }
  });

  it('trains the model to complete, and DESCRIBE shows its clauses and frequency', () => {
    expect(answers[1].data).toEqual([['complete']]);
    const d = answers[2];
    const ts = d.data[0][d.column_names.indexOf('timeseries')];
    expect(ts).toMatchObject({
      order_by: 'saledate',
      group_by: ['type', 'bedrooms'],
      window: 8,
      horizon: 4,
      frequency: 'quarterly (month-end)',
    });
  });

  it('forecasts the rows the page shows: its columns, dates and intervals around the values', () => {
    const r = answers[3];
    const documented = blocks[3].table!;
    expect(r.column_names).toEqual(documented[0]);
    expect(r.data.map((x: any[]) => x[0])).toEqual(documented.slice(1).map((x) => x[0]));
    for (const [date, forecast, lo, hi] of r.data) {
      expect(date).toMatch(/^20(19|20)-\d\d-\d\d$/);
      expect(lo).toBeLessThan(forecast);
      expect(hi).toBeGreaterThan(forecast);
    }
  });

  it('saves every group forecast in files and reads it back', () => {
    const saved = answers[5];
    expect(saved.column_names).toEqual([
      'saledate',
      'type',
      'bedrooms',
      'forecast',
      'ma_min',
      'ma_max',
    ]);
    expect(saved.data).toHaveLength(7 * 4);
    expect(new Set(saved.data.map((x: any[]) => x[0]))).toEqual(
      new Set(['2019-12-31', '2020-03-31', '2020-06-30', '2020-09-30']),
    );
  });
});
