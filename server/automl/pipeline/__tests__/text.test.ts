// Free-text inputs end to end: the words become a feature when they carry the label, DESCRIBE
// names the encoder, prediction scores new text, and USING text_encoder = 'stats' turns it off.
import { describe, expect, it } from 'vitest';
import { type CellValue, type Dataset, loadPredictor, train } from '../../index';
import { Rng } from '../../prng';

const TOPICS: Record<string, string[]> = {
  billing: ['invoice', 'charged', 'refund', 'payment'],
  login: ['password', 'locked', 'login', 'account'],
  delivery: ['parcel', 'courier', 'tracking', 'late'],
};
const FILLER = ['please', 'help', 'my', 'the', 'is', 'not', 'again', 'today', 'urgent', 'issue'];

function tickets(n: number, seed: number): Dataset {
  const rng = new Rng(seed);
  const topics = Object.keys(TOPICS);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const t = topics[rng.int(3)];
    const words = Array.from({ length: 6 }, () => FILLER[rng.int(FILLER.length)]);
    words[rng.int(6)] = TOPICS[t][rng.int(4)];
    rows.push([words.join(' '), rng.int(100), t]);
  }
  return { columns: ['title', 'age', 'topic'], rows };
}

describe('text columns', () => {
  const data = tickets(1500, 1);
  const test = tickets(400, 2);
  const rows = test.rows.map((r) => ({ title: r[0], age: r[1] }));
  const accuracy = (a: ReturnType<typeof train>) =>
    loadPredictor(a)
      .predict(rows)
      .filter((p, i) => p.value === test.rows[i][2]).length / rows.length;

  it('learn the label from the words (length and word count alone know nothing)', () => {
    const words = train(data, { target: 'topic', seed: 1 });
    const stats = train(data, { target: 'topic', seed: 1, using: { text_encoder: 'stats' } });
    expect(accuracy(words)).toBeGreaterThan(0.9);
    expect(accuracy(stats)).toBeLessThan(0.5);
    const f = words.description.features.find((x) => x.column === 'title')!;
    expect(f.encoder).toContain('tf-idf ridge score');
    expect(words.description.summary).toContain('text:tf-idf-ridge');
    expect(stats.description.features.find((x) => x.column === 'title')!.encoder).toBe(
      'TextEncoder(length, words)',
    );
    // The stack's out-of-fold score is kept with it.
    const enc = words.encoders.find((e) => e.kind === 'text');
    expect(enc?.kind === 'text' && enc.stack!.score).toBeGreaterThan(0.9);
  });

  it('keeps no word model when the words carry no signal', () => {
    const rng = new Rng(3);
    const noise = data.rows.map((r) => [r[0], r[1], rng.next() < 0.5 ? 'a' : 'b']);
    const a = train({ columns: data.columns, rows: noise }, { target: 'topic', seed: 1 });
    const enc = a.encoders.find((e) => e.kind === 'text');
    expect(enc?.kind === 'text' && enc.stack).toBeUndefined();
  });

  it('rejects an unknown text_encoder', () => {
    expect(() => train(data, { target: 'topic', using: { text_encoder: 'bert' } })).toThrow(
      "USING text_encoder must be 'auto'",
    );
  });
});
