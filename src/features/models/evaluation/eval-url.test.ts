import { describe, expect, it } from 'vitest';
import { EMPTY_EVAL_STATE, decodeEvalState, encodeEvalState, type EvalUrlState } from './eval-url';

const full: EvalUrlState = {
  section: 'slices',
  threshold: 0.37,
  payoff: {
    tp: '300',
    fp: '-50',
    tn: '0',
    fn: '-300',
    currency: '€',
    positiveName: 'leaves',
    negativeName: 'stays',
  },
  where: "`Age` >= 50 AND Geography = 'Germany'",
  group: 'Gender',
  intervals: 'Geography',
};

describe('the evaluation tab in a link (eval=)', () => {
  it('round-trips what the presenter looks at: section, threshold, payoff, WHERE, columns', () => {
    const raw = encodeEvalState(full)!;
    expect(decodeEvalState(raw)).toEqual(full);
    // What a URL carries: the text survives percent-encoding unchanged.
    expect(decodeEvalState(decodeURIComponent(encodeURIComponent(raw)))).toEqual(full);
  });

  it('writes no key when nothing is set, and only the fields set otherwise', () => {
    expect(encodeEvalState(EMPTY_EVAL_STATE)).toBeUndefined();
    expect(JSON.parse(encodeEvalState({ ...EMPTY_EVAL_STATE, threshold: 0.5 })!)).toEqual({
      threshold: 0.5,
    });
  });

  it('drops each field a crafted link gets wrong, keeping the others', () => {
    const raw = JSON.stringify({
      section: 'admin',
      threshold: 7,
      payoff: { tp: '1', fp: 2 },
      where: 'x'.repeat(2001),
      group: 'Gender',
      intervals: '',
      extra: '<script>',
    });
    expect(decodeEvalState(raw)).toEqual({ ...EMPTY_EVAL_STATE, group: 'Gender' });
  });

  it('reads a broken or oversized key as nothing set', () => {
    for (const raw of [undefined, '', '{', '[1]', 'null', '"x"', `{"group":"${'a'.repeat(5000)}"}`])
      expect(decodeEvalState(raw)).toEqual(EMPTY_EVAL_STATE);
  });

  it('leaves out a state too long for a link rather than writing a cut one', () => {
    // 2,000 quotes pass the WHERE's own bound, but JSON escapes each: past the key's 4,000.
    expect(encodeEvalState({ ...full, where: '"'.repeat(2000) })).toBeUndefined();
    expect(encodeEvalState({ ...full, where: 'a'.repeat(2000) })!.length).toBeLessThanOrEqual(4000);
  });
});
