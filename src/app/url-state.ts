/**
 * URL state in the hash, so a link restores the whole view: `sql=<base64url of UTF-8>` and `db=`
 * carry the active tab's SQL and database, `view=<name>` picks the main view (the SQL workspace by
 * default; a model page adds its own keys, e.g. `project`, `model`, `tab`, `form`), and `run=1`
 * asks to run on open (the shell confirms anything that is not read-only). Unknown keys are kept
 * as `extra`.
 */

import { decodeBase64Url, encodeBase64Url } from '../lib/base64url';

export { decodeBase64Url, encodeBase64Url };

export interface UrlState {
  view: string;
  sql?: string;
  db?: string;
  /** The link asks to run its query (or prediction) when opened. */
  run?: boolean;
  extra: Record<string, string>;
}

/** Past this size the SQL is not put in the URL (links that long break in browsers and chats). */
export const MAX_URL_SQL_CHARS = 16_000;

export function decodeHash(hash: string): UrlState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state: UrlState = { view: 'sql', extra: {} };
  for (const [k, v] of params) {
    if (k === 'sql') {
      const sql = decodeBase64Url(v);
      if (sql !== undefined) state.sql = sql;
    } else if (k === 'view') {
      if (/^[a-z][a-z0-9-]*$/.test(v)) state.view = v;
    } else if (k === 'db') {
      if (v && v.length <= 200) state.db = v;
    } else if (k === 'run') {
      if (v === '1') state.run = true;
    } else {
      state.extra[k] = v;
    }
  }
  return state;
}

export function encodeHash(state: UrlState): string {
  const params = new URLSearchParams();
  if (state.view !== 'sql') params.set('view', state.view);
  for (const [k, v] of Object.entries(state.extra)) params.set(k, v);
  if (state.sql && state.sql.length <= MAX_URL_SQL_CHARS)
    params.set('sql', encodeBase64Url(state.sql));
  if (state.db) params.set('db', state.db);
  if (state.run) params.set('run', '1');
  const s = params.toString();
  return s ? `#${s}` : '';
}
