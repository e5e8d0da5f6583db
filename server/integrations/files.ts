/**
 * Uploaded files (`PUT /api/files/{name}`), and files imported from a URL (MindsDB's
 * `{"source_type": "url", "source": ...}`, downloaded through `./url-fetch`): each becomes table
 * `files.<name>` in the attached `files.duckdb`. DuckDB reads the uploaded bytes itself (read_csv / read_parquet /
 * read_json_auto) from a temporary file inside DATA_DIR (inside, so the SQL sandbox's
 * allowed_directories covers it); nothing here parses CSV by hand.
 *
 * Atomic replacement: the rows go into a fresh `__upload_<random>` table first (one CREATE TABLE
 * AS, atomic in DuckDB), and only then does one transaction drop the old table and rename the new
 * one. A crash at any point leaves either the old table or the new one, plus at most a stray
 * `__upload_*` table or temp file, which `sweepUploads` removes at the next start.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { diskFullError, isDiskFull } from '../engine/atomic';
import type { Catalog } from '../catalog/catalog';
import { ERROR_CODES, ServiceError, badInput, notFound } from '../errors';
import { JsonDepthMeter, tooDeep } from '../engine/json-guard';
import { quoteIdent, quoteString } from '../engine/quote';
import { downloadError, fetchUrl, type UrlFetchOptions } from './url-fetch';

const FILES_DB = 'files';
const TEMP_PREFIX = '__upload_';
/** Letters, digits and underscores only: a name is a table name and never a path. */
const FILE_NAME_RE = /^[A-Za-z0-9_]{1,63}$/;
/** Default largest upload (MAX_UPLOAD_BYTES). Uploads stream to disk: this bounds disk use. */
const MAX_UPLOAD_BYTES = 1024 * 1024 * 1024;

/**
 * Body types an upload may carry besides JSON: multipart (the playground's form) and the data
 * types themselves. Never text/plain or form encoding, which any web page can send cross-site.
 */
export const UPLOAD_TYPES = [
  'multipart/form-data',
  'text/csv',
  'text/tab-separated-values',
  'application/x-ndjson',
  'application/octet-stream',
  'application/vnd.apache.parquet',
  'application/x-parquet',
  'application/parquet',
] as const;

export type UploadFormat = 'csv' | 'parquet' | 'json';

export interface FileInfo {
  name: string;
  row_count: number;
  columns: string[];
}

export function validateFileName(name: string): string {
  if (!FILE_NAME_RE.test(name) || name.startsWith(TEMP_PREFIX)) {
    throw new ServiceError(
      ERROR_CODES.BAD_INPUT,
      `Invalid file name '${name.slice(0, 80)}': use 1 to 63 letters, digits and underscores (no paths, dots or slashes)`,
      400,
    );
  }
  return name;
}

/**
 * Where uploads arrive: inside `uploads/` because DuckDB reads them from there and the SQL
 * sandbox opens only `uploads/` and `exports/`, in a folder of their own so the sweep at start
 * never touches the user's files next to it.
 */
const uploadDir = (catalog: Catalog) => path.join(catalog.dataDir, 'uploads', '.incoming');
const table = (name: string) => `${quoteIdent(FILES_DB)}.main.${quoteIdent(name)}`;

/** Removes what an interrupted upload left: temp files and `__upload_*` tables. */
export async function sweepUploads(catalog: Catalog): Promise<void> {
  fs.rmSync(uploadDir(catalog), { recursive: true, force: true });
  // Where older versions put them.
  const top = path.join(catalog.dataDir, 'uploads');
  for (const f of fs.existsSync(top) ? fs.readdirSync(top) : []) {
    if (f.startsWith('.upload-')) fs.rmSync(path.join(top, f), { force: true });
  }
  const rows = await catalog.engine.rows(
    `SELECT table_name FROM information_schema.tables WHERE table_catalog = '${FILES_DB}' AND table_schema = 'main' AND starts_with(table_name, '${TEMP_PREFIX}')`,
  );
  for (const [t] of rows) await catalog.engine.exec(`DROP TABLE IF EXISTS ${table(String(t))}`);
}

export interface ReceivedUpload {
  file: string;
  bytes: number;
  /** The first bytes, for format detection. */
  head: Buffer;
  /** How deeply the bytes nest as JSON (counted as they arrived; meaningful for JSON only). */
  jsonDepth: number;
}

/**
 * Streams an upload body to a temp file in DATA_DIR/uploads, counting bytes against the limit
 * (the HTTP body limit does not apply to streamed bodies).
 */
export async function receiveUpload(
  catalog: Catalog,
  body: Readable,
  limitBytes = MAX_UPLOAD_BYTES,
): Promise<ReceivedUpload> {
  fs.mkdirSync(uploadDir(catalog), { recursive: true, mode: 0o700 });
  const file = path.join(
    uploadDir(catalog),
    `.upload-${process.pid}-${crypto.randomBytes(6).toString('hex')}`,
  );
  let bytes = 0;
  const heads: Buffer[] = [];
  let headLen = 0;
  // The nesting is measured on the way in, in constant memory: DuckDB's JSON reader must never
  // see a file nested deeper than JSON_MAX_DEPTH (json-guard.ts).
  const depth = new JsonDepthMeter();
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      depth.push(chunk);
      if (bytes > limitBytes) {
        done(
          new ServiceError(
            ERROR_CODES.TOO_LARGE,
            `The file is larger than the upload limit (${limitBytes} bytes)`,
          ),
        );
        return;
      }
      if (headLen < 65536) {
        heads.push(chunk);
        headLen += chunk.length;
      }
      done(null, chunk);
    },
  });
  try {
    await pipeline(body, counter, fs.createWriteStream(file, { mode: 0o600 }));
  } catch (err) {
    fs.rmSync(file, { force: true });
    if (err instanceof ServiceError) throw err;
    if (isDiskFull(err)) throw diskFullError('the upload', err);
    throw badInput(`The upload was interrupted: ${(err as Error).message}`);
  }
  return { file, bytes, head: Buffer.concat(heads).subarray(0, 65536), jsonDepth: depth.max };
}

/** The format from the Content-Type or file name when they say, else from the bytes. */
export function detectFormat(
  head: Buffer,
  hints: { contentType?: string; filename?: string } = {},
): UploadFormat {
  const ct = (hints.contentType ?? '').toLowerCase().split(';')[0].trim();
  const ext = path.extname(hints.filename ?? '').toLowerCase();
  if (ct.includes('parquet') || ext === '.parquet') return 'parquet';
  if (
    ct === 'application/json' ||
    ct === 'application/x-ndjson' ||
    ext === '.json' ||
    ext === '.jsonl' ||
    ext === '.ndjson'
  )
    return 'json';
  if (
    ct === 'text/csv' ||
    ct === 'text/tab-separated-values' ||
    ext === '.csv' ||
    ext === '.tsv' ||
    ext === '.txt'
  )
    return 'csv';
  if (head.subarray(0, 4).toString('latin1') === 'PAR1') return 'parquet';
  const first = head.toString('utf8').trimStart()[0];
  if (first === '[' || first === '{') return 'json';
  return 'csv';
}

/** Text files must be UTF-8 without NUL bytes: anything else is binary, not CSV/JSON. */
function assertText(head: Buffer, format: UploadFormat): void {
  const binary = () =>
    badInput(
      `The file is not ${format.toUpperCase()} text: it contains binary data (upload CSV, JSON or Parquet)`,
    );
  if (head.includes(0)) throw binary();
  // Cut a multi-byte character the 64 KB sample may have split.
  let end = head.length;
  for (let k = 0; k < 3 && end > 0 && (head[end - 1] & 0xc0) === 0x80; k++) end--;
  if (end > 0 && head[end - 1] >= 0xc0) end--;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
  } catch {
    throw binary();
  }
  // Control characters other than tab, newline, carriage return and form feed mark binary data.
  let controls = 0;
  for (const b of head.subarray(0, end))
    if ((b < 0x20 && b !== 9 && b !== 10 && b !== 12 && b !== 13) || b === 0x7f) controls++;
  if (controls > Math.max(8, end / 100)) throw binary();
}

/** How a CSV spells true and false when its BOOLEAN column really is a boolean. */
const BOOLEAN_SPELLINGS = new Set(['true', 'false', 't', 'f']);
/** Rows read to learn how a BOOLEAN-sniffed column spells its values. */
const SPELLING_SAMPLE_ROWS = 100_000;

/**
 * The CSV reader, with the user's labels kept: DuckDB's sniffer types a Yes/No (or Y/N, on/off)
 * column as BOOLEAN, which would turn the labels into true/false in every query and prediction.
 * A column sniffed BOOLEAN whose text spells anything but true/false/t/f is read as text.
 */
async function csvReader(catalog: Catalog, file: string): Promise<string> {
  const f = quoteString(file);
  const sniffed = await catalog.engine.rows(
    `DESCRIBE SELECT * FROM read_csv(${f}, header = true, auto_detect = true)`,
  );
  const booleans = sniffed.filter((r) => r[1] === 'BOOLEAN').map((r) => String(r[0]));
  const labels: string[] = [];
  if (booleans.length > 0) {
    const spellings = booleans.map((c) => `list_distinct(list(lower(trim(${quoteIdent(c)}))))`);
    const [row] = await catalog.engine.rows(
      // The sniffer typed these columns from a sample; a sample of their spellings decides too
      // (a whole second pass would double the import of a large file).
      `SELECT ${spellings.join(', ')} FROM (FROM read_csv(${f}, header = true, auto_detect = true, all_varchar = true) LIMIT ${SPELLING_SAMPLE_ROWS})`,
    );
    booleans.forEach((c, i) => {
      const seen = (row?.[i] ?? []) as unknown[];
      if (seen.some((v) => typeof v === 'string' && !BOOLEAN_SPELLINGS.has(v))) labels.push(c);
    });
  }
  const types =
    labels.length === 0
      ? ''
      : `, types = {${labels.map((c) => `${quoteString(c)}: 'VARCHAR'`).join(', ')}}`;
  return `read_csv(${f}, header = true, auto_detect = true${types})`;
}

async function reader(catalog: Catalog, file: string, format: UploadFormat): Promise<string> {
  switch (format) {
    case 'csv':
      return csvReader(catalog, file);
    case 'parquet':
      return `read_parquet(${quoteString(file)})`;
    case 'json':
      // Type detection stops at the nesting limit (deeper values stay JSON); the file was
      // measured already, so this only bounds the detection's work.
      return `read_json_auto(${quoteString(file)}, maximum_depth = ${catalog.engine.jsonMaxDepth})`;
  }
}

/** Per catalog and file name, the last replacement queued (see `inTurn`). */
const replacing = new WeakMap<Catalog, Map<string, Promise<unknown>>>();

/**
 * Runs the replacement of `files.<name>` after the ones queued before it: two uploads to one name
 * at once made DuckDB answer the second with its raw "TransactionContext Error" (a write-write
 * conflict on the catalog entry). Each upload still reads its file on its own; only the swap waits.
 */
async function inTurn<T>(catalog: Catalog, name: string, fn: () => Promise<T>): Promise<T> {
  let turns = replacing.get(catalog);
  if (!turns) replacing.set(catalog, (turns = new Map()));
  // DuckDB's names are case-insensitive.
  const key = name.toLowerCase();
  const run = (turns.get(key) ?? Promise.resolve()).then(fn, fn);
  const tail = run.catch(() => undefined);
  turns.set(key, tail);
  try {
    return await run;
  } finally {
    if (turns.get(key) === tail) turns.delete(key);
  }
}

/**
 * Loads an uploaded temp file as `files.<name>` (replacing it atomically) and removes the temp
 * file. Empty files, binary data, unreadable content and zero columns are specific 400 errors.
 */
export async function importUpload(
  catalog: Catalog,
  name: string,
  up: ReceivedUpload,
  format: UploadFormat,
): Promise<FileInfo> {
  const engine = catalog.engine;
  const tmp = `${TEMP_PREFIX}${crypto.randomBytes(6).toString('hex')}`;
  try {
    validateFileName(name);
    if (up.bytes === 0 || (format !== 'parquet' && up.head.toString('utf8').trim() === '')) {
      throw badInput('The file is empty: there is nothing to load');
    }
    if (format !== 'parquet') assertText(up.head, format);
    if (format === 'json' && up.jsonDepth > engine.jsonMaxDepth) {
      throw tooDeep('The JSON file', up.jsonDepth, engine.jsonMaxDepth);
    }
    try {
      const from = await reader(catalog, up.file, format);
      await engine.exec(`CREATE TABLE ${table(tmp)} AS SELECT * FROM ${from}`);
    } catch (err) {
      const msg = (err instanceof Error ? err.message : String(err)).split('\n')[0];
      throw badInput(
        `Cannot read the file as ${format.toUpperCase()}: ${msg.replaceAll(up.file, '<upload>')}`,
      );
    }
    const columns = await columnsOf(catalog, tmp);
    if (columns.length === 0) throw badInput('The file has no columns');
    if (format === 'json' && columns.length === 1 && (await isJsonFallback(catalog, tmp))) {
      // read_json_auto found no records with fields (`[]`, `{}`, scalars) and fell back to one raw column.
      throw badInput(
        'The file has no columns: expected a JSON array of objects (or one object per line) with named fields',
      );
    }
    if (format === 'json') await scalarJsonAsText(catalog, tmp);
    const count = await inTurn(catalog, name, async () => {
      await engine.withConnection(async (conn) => {
        await conn.run('BEGIN TRANSACTION');
        try {
          await conn.run(`DROP TABLE IF EXISTS ${table(name)}`);
          await conn.run(`ALTER TABLE ${table(tmp)} RENAME TO ${quoteIdent(name)}`);
          await conn.run('COMMIT');
        } catch (err) {
          await conn.run('ROLLBACK').catch(() => undefined);
          const msg = err instanceof Error ? err.message : String(err);
          // Uploads take turns (inTurn), so a conflict is SQL changing the table meanwhile.
          if (/conflict|TransactionContext/i.test(msg)) {
            throw new ServiceError(
              ERROR_CODES.CONFLICT,
              `Cannot replace file '${name}': another statement changed it at the same time; try again`,
            );
          }
          throw badInput(`Cannot replace file '${name}': ${msg.split('\n')[0]}`);
        }
      });
      return (await engine.rows(`SELECT count(*) FROM ${table(name)}`))[0][0];
    });
    return { name, row_count: Number(count), columns };
  } finally {
    fs.rmSync(up.file, { force: true });
    await engine.exec(`DROP TABLE IF EXISTS ${table(tmp)}`).catch(() => undefined);
  }
}

/**
 * MindsDB's JSON request form of `PUT /api/files/{name}` (`{"source_type": ..., "source": ...}`)
 * when an upload sent as application/json is one: a small JSON object with either key. Any other
 * JSON (an array of records, an object of other fields) is the file's content. Null when not.
 */
export function requestFormOf(up: ReceivedUpload): Record<string, unknown> | null {
  if (up.bytes > up.head.length) {
    if (oversizedRequest(up.head)) {
      discardUpload(up);
      throw new ServiceError(
        ERROR_CODES.TOO_LARGE,
        `A URL import request (a JSON object with "source_type" and "source") is at most ${up.head.length} bytes; this one has ${up.bytes}. To load a JSON file, send an array of objects or one object per line`,
      );
    }
    return null;
  }
  let value: unknown;
  try {
    value = JSON.parse(up.head.toString('utf8'));
  } catch {
    return null;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  return 'source_type' in value || 'source' in value ? value : null;
}

/**
 * Whether a JSON body too long to parse whole is the request form anyway: one object whose first
 * key is `source_type` or `source` that does not end within the first bytes. A file of records
 * (an array, or objects one per line) starts otherwise or ends its first object early.
 */
function oversizedRequest(head: Buffer): boolean {
  const text = head.toString('utf8');
  if (!/^\s*\{\s*"(source_type|source)"\s*:/.test(text)) return false;
  let depth = 0;
  let inString = false;
  for (let i = text.indexOf('{'); i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return false;
  }
  return true;
}

/** Removes a received upload that is not loaded (it was a request, not a file). */
export function discardUpload(up: ReceivedUpload): void {
  fs.rmSync(up.file, { force: true });
}

/** Media types that say nothing about the format: the file name or the bytes decide. */
const GENERIC_TYPES = new Set(['application/octet-stream', 'text/plain', 'binary/octet-stream']);

/**
 * Downloads `source` (see `./url-fetch` for what is refused) and loads it as `files.<name>`, like
 * an upload. The format comes from the response's Content-Type, else from `originalFileName` or
 * the URL's file name, else from the bytes. An HTML page (a login or error page answered with 200)
 * is refused rather than loaded as a one-column table.
 */
export async function importFromUrl(
  catalog: Catalog,
  name: string,
  source: string,
  originalFileName: string | null | undefined,
  opts: UrlFetchOptions,
): Promise<FileInfo> {
  validateFileName(name);
  const fetched = await fetchUrl(source, opts);
  const type = (fetched.contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') {
    fetched.body.destroy();
    throw badInput(
      `The URL answered with an HTML page, not a data file (CSV, JSON or Parquet): ${fetched.url.slice(0, 200)}`,
    );
  }
  let up: ReceivedUpload;
  try {
    up = await receiveUpload(catalog, fetched.body, opts.maxBytes);
  } catch (err) {
    if (fetched.deadline.aborted)
      throw downloadError(fetched.deadline.reason, new URL(fetched.url), opts.timeoutMs);
    throw err;
  }
  // A body delimited by the connection's close ends "normally" when the deadline destroys the
  // connection: only a complete message, read before the deadline, is a file. A fragment never
  // replaces a table.
  if (fetched.deadline.aborted || !fetched.body.complete) {
    discardUpload(up);
    if (fetched.deadline.aborted)
      throw downloadError(fetched.deadline.reason, new URL(fetched.url), opts.timeoutMs);
    throw badInput(
      `The download from ${new URL(fetched.url).host} ended before the file was complete`,
    );
  }
  const named = [originalFileName, fetched.fileName].find((f) => f && path.extname(f) !== '');
  const format = detectFormat(up.head, {
    contentType: GENERIC_TYPES.has(type) ? undefined : type,
    filename: named ?? undefined,
  });
  return importUpload(catalog, name, up, format);
}

async function columnsOf(catalog: Catalog, name: string): Promise<string[]> {
  const rows = await catalog.engine.rows(
    `SELECT column_name FROM information_schema.columns
     WHERE table_catalog = '${FILES_DB}' AND table_schema = 'main' AND table_name = $name ORDER BY ordinal_position`,
    { name },
  );
  return rows.map((r) => String(r[0]));
}

/**
 * A JSON field holding strings in some records and numbers in others (a film titled 1776) comes
 * back from read_json_auto as type JSON, each value JSON text: `"Slam"` with its quotes. A column
 * of such scalars becomes text, strings unquoted; a column holding objects or arrays stays JSON.
 */
async function scalarJsonAsText(catalog: Catalog, name: string): Promise<void> {
  const rows = await catalog.engine.rows(
    `SELECT column_name FROM information_schema.columns
     WHERE table_catalog = '${FILES_DB}' AND table_schema = 'main' AND table_name = $name AND data_type = 'JSON'`,
    { name },
  );
  for (const [column] of rows) {
    const c = quoteIdent(String(column));
    const [[nested]] = await catalog.engine.rows(
      `SELECT count(*) FROM ${table(name)} WHERE json_type(${c}) IN ('OBJECT', 'ARRAY')`,
    );
    if (Number(nested) > 0) continue;
    await catalog.engine.exec(
      `ALTER TABLE ${table(name)} ALTER ${c} TYPE VARCHAR USING (${c} ->> '$')`,
    );
  }
}

async function isJsonFallback(catalog: Catalog, name: string): Promise<boolean> {
  const rows = await catalog.engine.rows(
    `SELECT column_name, data_type FROM information_schema.columns
     WHERE table_catalog = '${FILES_DB}' AND table_schema = 'main' AND table_name = $name`,
    { name },
  );
  return (
    rows.length === 1 &&
    rows[0][0] === 'json' &&
    /^(JSON|MAP\(VARCHAR, JSON\))$/.test(String(rows[0][1]))
  );
}

export async function listFiles(catalog: Catalog): Promise<FileInfo[]> {
  const tables = await catalog.engine.rows(
    `SELECT table_name FROM information_schema.tables
     WHERE table_catalog = '${FILES_DB}' AND table_schema = 'main' AND NOT starts_with(table_name, '${TEMP_PREFIX}')
     ORDER BY table_name`,
  );
  const out: FileInfo[] = [];
  for (const [t] of tables) {
    const name = String(t);
    const [[count]] = await catalog.engine.rows(`SELECT count(*) FROM ${table(name)}`);
    out.push({ name, row_count: Number(count), columns: await columnsOf(catalog, name) });
  }
  return out;
}

export async function deleteFile(catalog: Catalog, name: string): Promise<void> {
  validateFileName(name);
  const found = await catalog.engine.rows(
    `SELECT table_name FROM information_schema.tables
     WHERE table_catalog = '${FILES_DB}' AND table_schema = 'main' AND lower(table_name) = lower($name)`,
    { name },
  );
  if (found.length === 0) throw notFound(`File '${name}' does not exist`);
  await catalog.engine.exec(`DROP TABLE ${table(String(found[0][0]))}`);
}
