/**
 * "Copy as curl" and "copy as fetch" for exactly the request sent: the instance URL as the
 * browser sees it and the body text as it went over the wire.
 */
export interface SentRequest {
  method: 'POST' | 'GET';
  /** Absolute URL. */
  url: string;
  /** The exact body text sent (absent for GET). */
  body?: string;
}

/** POSIX shell single-quoting: safe for any text, including quotes and newlines. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export function curlSnippet(req: SentRequest): string {
  const lines = [`curl -X ${req.method} ${shellQuote(req.url)}`];
  if (req.body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  --data-raw ${shellQuote(req.body)}`);
  }
  return lines.join(' \\\n');
}

export function fetchSnippet(req: SentRequest): string {
  const init =
    req.body === undefined
      ? `{ method: ${JSON.stringify(req.method)} }`
      : `{\n  method: ${JSON.stringify(req.method)},\n  headers: { 'Content-Type': 'application/json' },\n  body: ${JSON.stringify(req.body)},\n}`;
  return `const res = await fetch(${JSON.stringify(req.url)}, ${init});\nconst rows = await res.json();`;
}

/** The predict URL for a model (version suffix `name.2` when a version is chosen). */
export function predictPath(project: string, model: string, version?: number): string {
  const m = version === undefined ? model : `${model}.${version}`;
  return `/api/projects/${encodeURIComponent(project)}/models/${encodeURIComponent(m)}/predict`;
}
