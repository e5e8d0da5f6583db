/**
 * The Evaluation tab's `eval=` URL key: what the presenter is looking at (the section, the
 * threshold and payoff, the slice WHERE they typed, the group and interval columns), so a shared
 * link or a reload opens the same view. A link is input anyone can craft: the key is parsed with
 * zod, bounded, and anything that does not fit is dropped field by field, never trusted.
 */
import { z } from 'zod';
import type { UrlCodec } from '../../../lib/use-url-state';
import type { EvalSection } from './eval-tabs';
import type { PayoffText } from './threshold/threshold-model';

/** A link's key beyond this many characters is not written (browsers and chats cut long URLs). */
const MAX_KEY = 4000;
const SECTIONS = [
  'leaderboard',
  'threshold',
  'calibration',
  'intervals',
  'slices',
  'groups',
] as const;

export interface EvalUrlState {
  section: EvalSection | null;
  /** The threshold being looked at (binary classifiers), 0 to 1. */
  threshold: number | null;
  payoff: PayoffText | null;
  /** The WHERE asked in "Where it is wrong". */
  where: string | null;
  /** The column "For whom" groups by. */
  group: string | null;
  /** The column the interval audit is cut by. */
  intervals: string | null;
}

export const EMPTY_EVAL_STATE: EvalUrlState = {
  section: null,
  threshold: null,
  payoff: null,
  where: null,
  group: null,
  intervals: null,
};

const text = (max: number) => z.string().max(max);
/** A payoff cell as typed (a number in the user's words: "-50", "1,200.5", or empty). */
const amount = text(32);
const Payoff = z.object({
  tp: amount,
  fp: amount,
  tn: amount,
  fn: amount,
  currency: text(16),
  positiveName: text(80),
  negativeName: text(80),
});

/** Each field on its own: one bad field (a hand-edited link) does not lose the others. */
const fields = {
  section: z.enum(SECTIONS),
  threshold: z.number().finite().min(0).max(1),
  payoff: Payoff,
  where: text(2000).refine((s) => s.trim() !== ''),
  group: text(256).min(1),
  intervals: text(256).min(1),
};

export function decodeEvalState(raw: string | undefined): EvalUrlState {
  if (!raw || raw.length > MAX_KEY) return EMPTY_EVAL_STATE;
  let o: unknown;
  try {
    o = JSON.parse(raw);
  } catch {
    return EMPTY_EVAL_STATE;
  }
  if (!o || typeof o !== 'object' || Array.isArray(o)) return EMPTY_EVAL_STATE;
  const rec = o as Record<string, unknown>;
  const pick = <K extends keyof typeof fields>(k: K) => {
    const r = fields[k].safeParse(rec[k]);
    return r.success ? (r.data as z.infer<(typeof fields)[K]>) : null;
  };
  return {
    section: pick('section'),
    threshold: pick('threshold'),
    payoff: pick('payoff'),
    where: pick('where'),
    group: pick('group'),
    intervals: pick('intervals'),
  };
}

/** The key's text: only the fields set; none set (or too long for a link): no key. */
export function encodeEvalState(s: EvalUrlState): string | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) if (v !== null) out[k] = v;
  if (Object.keys(out).length === 0) return undefined;
  const raw = JSON.stringify(out);
  return raw.length > MAX_KEY ? undefined : raw;
}

export const evalUrlCodec: UrlCodec<EvalUrlState> = {
  decode: decodeEvalState,
  encode: encodeEvalState,
};
