// Categoricals with more categories than tree codes (253): the rarer ones keep their signal
// through their out-of-fold target mean.
import { describe, expect, it } from 'vitest';
import { gauss } from '../../__tests__/helpers';
import { type CellValue, loadPredictor, train } from '../../index';
import { Rng } from '../../prng';

describe('high-cardinality categoricals', () => {
  it('use the target mean of categories beyond the 253 codes (r2 far above codes alone)', () => {
    const rng = new Rng(4);
    const effect = Array.from({ length: 1500 }, () => gauss(rng) * 3);
    const make = (n: number) => {
      const rows: CellValue[][] = [];
      for (let i = 0; i < n; i++) {
        const c = rng.int(1500);
        rows.push([`shop${c}`, rng.next(), effect[c] + 0.3 * gauss(rng)]);
      }
      return rows;
    };
    const columns = ['shop', 'x', 'y'];
    const a = train({ columns, rows: make(15000) }, { target: 'y', seed: 1 });
    const enc = a.encoders.find((e) => e.column === 'shop');
    expect(enc?.kind === 'categorical' && enc.targetEncoding!.keys.length).toBeGreaterThan(1400);
    expect(a.description.features.find((f) => f.column === 'shop')!.encoder).toContain(
      'target mean',
    );
    const test = make(3000);
    const preds = loadPredictor(a).predict(test.map((r) => ({ shop: r[0], x: r[1] })));
    const truth = test.map((r) => r[2] as number);
    const mean = truth.reduce((s, v) => s + v, 0) / truth.length;
    let ssr = 0;
    let sst = 0;
    preds.forEach((p, i) => {
      ssr += (truth[i] - (p.value as number)) ** 2;
      sst += (truth[i] - mean) ** 2;
    });
    // 253 codes cover ~17 % of the categories: codes alone would explain little.
    expect(1 - ssr / sst).toBeGreaterThan(0.8);
  });
});
