/**
 * The create-model form in its URL (`form=<base64url JSON>`), so a link (or a reload) restores it.
 * A link is input anyone can craft: text fields only, each bounded.
 */
import { decodeBase64Url, encodeBase64Url } from '../../../lib/base64url';
import type { UrlCodec } from '../../../lib/use-url-state';

/** Longer forms are not put in the URL (links that long break in browsers and chats). */
const MAX_FORM_CHARS = 8_000;

const str = (v: unknown, max = 200): string | undefined =>
  typeof v === 'string' && v.length <= max ? v : undefined;

export interface CreateForm {
  sourceKind?: 'table' | 'query';
  db?: string;
  schema?: string;
  table?: string;
  query?: string;
  target?: string;
  project?: string;
  name?: string;
  using?: { key: string; value: string }[];
  /** A time-series model's clauses (see TimeSeriesInput). */
  timeseries?: { orderBy: string; groupBy: string[]; window: string; horizon: string };
}

const CREATE_KEYS = ['db', 'schema', 'table', 'target', 'project', 'name'] as const;

export function encodeCreateForm(form: CreateForm): string | undefined {
  const text = encodeBase64Url(JSON.stringify(form));
  return text.length <= MAX_FORM_CHARS ? text : undefined;
}

export function decodeCreateForm(value: string | undefined): CreateForm | undefined {
  if (!value || value.length > MAX_FORM_CHARS) return undefined;
  const text = decodeBase64Url(value);
  let raw: unknown;
  try {
    raw = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!raw || typeof raw !== 'object') return undefined;
  const o = raw as Record<string, unknown>;
  const out: CreateForm = {};
  for (const k of CREATE_KEYS) {
    const v = str(o[k]);
    if (v !== undefined) out[k] = v;
  }
  const query = str(o.query, 4000);
  if (query !== undefined) out.query = query;
  if (o.sourceKind === 'table' || o.sourceKind === 'query') out.sourceKind = o.sourceKind;
  const ts = o.timeseries;
  if (ts && typeof ts === 'object' && !Array.isArray(ts)) {
    const t = ts as Record<string, unknown>;
    out.timeseries = {
      orderBy: str(t.orderBy) ?? '',
      groupBy: Array.isArray(t.groupBy) ? t.groupBy.slice(0, 10).flatMap((g) => str(g) ?? []) : [],
      window: str(t.window, 6) ?? '',
      horizon: str(t.horizon, 6) ?? '',
    };
  }
  if (Array.isArray(o.using)) {
    out.using = o.using
      .slice(0, 30)
      .map((u) => (u && typeof u === 'object' ? (u as Record<string, unknown>) : {}))
      .map((u) => ({ key: str(u.key) ?? '', value: str(u.value, 1000) ?? '' }));
  }
  return out;
}

/**
 * The create page's `form=` key, for `useUrlState`. Without one (or with a broken one) the form
 * starts from the entry point's keys (`db`, `schema`, `table`, `project`: "Create a model" on a
 * table in the explorer).
 */
export function createFormCodec(entry: Record<string, string | undefined>): UrlCodec<CreateForm> {
  const start: CreateForm = {};
  for (const k of ['db', 'schema', 'table', 'project'] as const) {
    const v = str(entry[k]);
    if (v) start[k] = v;
  }
  return {
    decode: (text) => decodeCreateForm(text) ?? start,
    encode: encodeCreateForm,
  };
}
