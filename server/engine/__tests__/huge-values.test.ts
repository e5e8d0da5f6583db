/**
 * Issue 22, item 7: a value longer than a JavaScript string can hold (600M characters; V8 stops at
 * 536,870,888) is refused as too large with the limit named, not as bad input with V8's words,
 * and the instance keeps serving.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({});
});
afterAll(async () => {
  await h.close();
});

describe('a 600M-character value', () => {
  it('is refused as too large, naming the limit', async () => {
    const r = await h.sql("SELECT repeat('x', 600000000) AS v");
    expect(r).toMatchObject({ type: 'error', error_code: 6 });
    expect(r.error_message).toBe(
      "A value in the result is too large to return: the limit is 536,870,888 characters for one value (the longest string the instance's JavaScript engine holds); select a part of it (left(), substr()) or its length",
    );
    expect((await h.sql('SELECT 1 AS alive')).data).toEqual([[1]]);
  });
});
