// Seeded datasets for the AutoML bench (issue 15's figures): a messy mixed table at any size, a
// heteroscedastic table with quiet and noisy regions, short ticket texts whose words carry the
// label, and scikit-learn's toy datasets (read through bench/sklearn_peer.py when it is installed).

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CellValue, Dataset } from '../server/automl/index';
import { Rng } from '../server/automl/prng';

export const PYTHON = '/usr/bin/python3';
export const PEER_SCRIPT = join(dirname(fileURLToPath(import.meta.url)), 'sklearn_peer.py');

function gauss(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** Whether Debian's python3-sklearn is installed (the bench's reference peer). */
export function sklearnAvailable(): boolean {
  const r = spawnSync(PYTHON, ['-c', 'import sklearn'], { encoding: 'utf8' });
  return r.status === 0;
}

/** A scikit-learn toy dataset ('digits', 'wine', 'breast_cancer', 'iris', 'diabetes'). */
export function sklearnToy(name: string): Dataset {
  const r = spawnSync(PYTHON, [PEER_SCRIPT, 'dump', name], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  if (r.status !== 0) throw new Error(`sklearn_peer.py dump ${name}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Dataset;
}

const REGIONS = ['north', 'south', 'east', 'west', 'central', 'coast', 'hills', 'valley'];
const KINDS = ['flat', 'house', 'studio', 'loft'];

/**
 * A messy regression table: 6 numbers (one log-normal, one with 8 % missing values), 2
 * categoricals and a flag; the target mixes a nonlinear effect, an interaction, category effects
 * and heavy-tailed noise whose size grows with the `kind` and one of the numbers.
 */
export function messyTable(n: number, seed = 21): Dataset {
  const rng = new Rng(seed);
  const regionEffect = REGIONS.map(() => gauss(rng) * 2);
  const rows: CellValue[][] = new Array(n);
  for (let i = 0; i < n; i++) {
    const a = rng.next() * 10;
    const b = gauss(rng);
    const c = Math.exp(gauss(rng) * 0.8);
    const d = rng.next();
    const e = rng.int(50);
    const f = rng.next() < 0.08 ? null : rng.next() * 4;
    const region = rng.int(REGIONS.length);
    const kind = rng.int(KINDS.length);
    const flag = rng.next() < 0.3;
    const noiseScale = 0.3 + kind * 0.6 + d;
    // Heavy tails: a t-like mix (1 row in 20 has 4x noise).
    const noise = gauss(rng) * noiseScale * (rng.next() < 0.05 ? 4 : 1);
    const y =
      3 * Math.sin(a) +
      2 * b * (flag ? 1 : -0.5) +
      Math.log(c) * 1.5 +
      regionEffect[region] +
      (f === null ? 0 : f * f * 0.3) +
      0.02 * e +
      noise;
    rows[i] = [a, b, c, d, e, f, REGIONS[region], KINDS[kind], flag, y];
  }
  return { columns: ['a', 'b', 'c', 'd', 'e', 'f', 'region', 'kind', 'flag', 'y'], rows };
}

/** y = 2x + group effect, noise sd 0.2 in 'quiet' rows and 3 in 'noisy' rows (2k rows). */
export function heteroTable(n = 2000, seed = 22): Dataset {
  const rng = new Rng(seed);
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const x = rng.next() * 10;
    const zone = rng.next() < 0.5 ? 'quiet' : 'noisy';
    const z = rng.next();
    const sd = zone === 'quiet' ? 0.2 : 3;
    rows.push([x, zone, z, 2 * x + (zone === 'noisy' ? 1 : 0) + sd * gauss(rng)]);
  }
  return { columns: ['x', 'zone', 'z', 'y'], rows };
}

const TOPICS: Record<string, string[]> = {
  billing: ['invoice', 'charged', 'refund', 'payment', 'bill', 'price', 'twice', 'card'],
  technical: ['error', 'crash', 'login', 'app', 'screen', 'update', 'bug', 'loading'],
  shipping: ['delivery', 'package', 'arrived', 'tracking', 'courier', 'late', 'parcel', 'box'],
  account: ['password', 'email', 'profile', 'username', 'delete', 'settings', 'locked', 'name'],
};
const FILLER = [
  'please',
  'help',
  'my',
  'the',
  'is',
  'not',
  'with',
  'urgent',
  'issue',
  'problem',
  'again',
  'today',
  'since',
  'yesterday',
  'order',
  'still',
  'cannot',
  'why',
  'need',
  'customer',
];

/**
 * Support tickets: a short title whose words carry the topic (4 topics; each title has 1-2 topic
 * words, one word in six borrowed from another topic, the rest filler), the customer's plan and
 * tenure (weak signals), and the topic as the label.
 */
export function ticketTable(n = 4000, seed = 23): Dataset {
  const rng = new Rng(seed);
  const topics = Object.keys(TOPICS);
  const plans = ['free', 'basic', 'pro'];
  const rows: CellValue[][] = [];
  for (let i = 0; i < n; i++) {
    const t = rng.int(topics.length);
    const words: string[] = [];
    const len = 5 + rng.int(6);
    const signal = 1 + rng.int(2);
    for (let w = 0; w < len; w++) {
      if (w < signal) {
        const own = rng.next() < 0.84;
        const topic = own ? topics[t] : topics[rng.int(topics.length)];
        words.push(TOPICS[topic][rng.int(8)]);
      } else words.push(FILLER[rng.int(FILLER.length)]);
    }
    // Shuffle so the topic words are not always first.
    for (let w = words.length - 1; w > 0; w--) {
      const j = rng.int(w + 1);
      [words[w], words[j]] = [words[j], words[w]];
    }
    const plan = plans[(t + rng.int(3)) % 3];
    rows.push([words.join(' '), plan, rng.int(60) + (t === 1 ? 10 : 0), topics[t]]);
  }
  return { columns: ['title', 'plan', 'tenure_months', 'topic'], rows };
}
