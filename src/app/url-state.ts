/**
 * URL state in the hash: `#sql=<base64url of UTF-8>` carries the active tab's SQL so a shared link
 * opens that query, and `view=<name>` picks the main view (the SQL workspace by default; other
 * views such as a model page are added by their features). Unknown keys are kept as `extra`.
 */

export interface UrlState {
  view: string;
  sql?: string;
  extra: Record<string, string>;
}

/** Past this size the SQL is not put in the URL (links that long break in browsers and chats). */
export const MAX_URL_SQL_CHARS = 16_000;

export function encodeBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeBase64Url(value: string): string | undefined {
  try {
    const b64 = value.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

export function decodeHash(hash: string): UrlState {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const state: UrlState = { view: 'sql', extra: {} };
  for (const [k, v] of params) {
    if (k === 'sql') {
      const sql = decodeBase64Url(v);
      if (sql !== undefined) state.sql = sql;
    } else if (k === 'view') {
      if (/^[a-z][a-z0-9-]*$/.test(v)) state.view = v;
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
  const s = params.toString();
  return s ? `#${s}` : '';
}
