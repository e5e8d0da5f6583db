/**
 * A model page's form values in its URL (`form=<base64url JSON>`), so a link restores the predict
 * rows and the what-if sweep. Whatever a link carries is checked and bounded here: it is input
 * anyone can craft, and it only ever fills the form (sending stays a prediction, which reads).
 */
import { decodeBase64Url, encodeBase64Url } from '../../../lib/base64url';
import type { UrlCodec } from '../../../lib/use-url-state';
import type { FormRow } from './predict-form';

export interface SweepSettings {
  column: string;
  from: string;
  to: string;
  steps: string;
}

export interface ModelPageForm {
  /** The predict rows: column -> value, as the form holds them. */
  rows: Record<string, string | number | boolean | null>[];
  selected: number;
  sweep?: SweepSettings;
}

/** Longer forms are not put in the URL (links that long break in browsers and chats). */
const MAX_FORM_CHARS = 8_000;
export const MAX_FORM_ROWS = 50;

const isScalar = (v: unknown): v is string | number | boolean | null =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** The form values of the rows (unsent extra keys of a pasted body included). */
export function formRows(rows: readonly FormRow[]): ModelPageForm['rows'] {
  return rows.map((r) => {
    const out: ModelPageForm['rows'][number] = {};
    for (const [k, v] of Object.entries(r.extra)) if (isScalar(v)) out[k] = v;
    for (const [k, v] of Object.entries(r.cells)) if (v !== undefined && v !== '') out[k] = v;
    return out;
  });
}

export function encodeForm(form: ModelPageForm): string | undefined {
  const text = encodeBase64Url(JSON.stringify(form));
  return text.length <= MAX_FORM_CHARS ? text : undefined;
}

const str = (v: unknown, max = 200): string | undefined =>
  typeof v === 'string' && v.length <= max ? v : undefined;

export function decodeForm(value: string | undefined): ModelPageForm | undefined {
  if (!value || value.length > MAX_FORM_CHARS) return undefined;
  const text = decodeBase64Url(value);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object' || !Array.isArray((raw as { rows?: unknown }).rows))
    return undefined;
  const o = raw as { rows: unknown[]; selected?: unknown; sweep?: unknown };
  const rows = o.rows
    .slice(0, MAX_FORM_ROWS)
    .filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && !Array.isArray(r))
    .map(
      (r) =>
        Object.fromEntries(
          Object.entries(r).filter(
            ([k, v]) =>
              k.length <= 200 && isScalar(v) && (typeof v !== 'string' || v.length <= 1000),
          ),
        ) as ModelPageForm['rows'][number],
    );
  if (rows.length === 0) return undefined;
  const selected =
    typeof o.selected === 'number' && Number.isInteger(o.selected)
      ? Math.max(0, Math.min(o.selected, rows.length - 1))
      : 0;
  const s = o.sweep as Record<string, unknown> | undefined;
  const sweep =
    s && typeof s === 'object'
      ? { column: str(s.column), from: str(s.from, 40), to: str(s.to, 40), steps: str(s.steps, 10) }
      : undefined;
  return {
    rows,
    selected,
    ...(sweep?.column && sweep.from !== undefined && sweep.to !== undefined && sweep.steps
      ? { sweep: sweep as SweepSettings }
      : {}),
  };
}

/** The model page's `form=` key, for `useUrlMirror` (an absent form leaves the key out). */
export const pageFormCodec: UrlCodec<ModelPageForm | undefined> = {
  decode: decodeForm,
  encode: (form) => (form ? encodeForm(form) : undefined),
};
