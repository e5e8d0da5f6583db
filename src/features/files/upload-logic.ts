/** Pure helpers of the file upload: table names from file names, accepted types, progress text. */
import { quoteIdent } from '../../api/catalog-parse';
import { FileName, type FileInfo } from '../../../contract';

/** An upload: idle -> sending (progress) -> loading (the table is built) -> done | failed. */
export type UploadState =
  | { kind: 'idle' }
  | { kind: 'sending'; name: string; loaded: number; total: number }
  | { kind: 'loading'; name: string; total: number }
  | { kind: 'done'; info: FileInfo }
  | { kind: 'failed'; name: string; message: string };

/** The database uploads land in: `files.<name>`. */
export const FILES_DB = 'files';

export type UploadKind = 'csv' | 'json' | 'parquet';

const EXTENSIONS: Record<string, UploadKind> = {
  csv: 'csv',
  tsv: 'csv',
  txt: 'csv',
  json: 'json',
  jsonl: 'json',
  ndjson: 'json',
  parquet: 'parquet',
};

const MIME_TYPES: Record<string, UploadKind> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'application/vnd.ms-excel': 'csv', // what Windows browsers call a .csv
  'application/json': 'json',
  'application/x-ndjson': 'json',
  'application/vnd.apache.parquet': 'parquet',
  'application/x-parquet': 'parquet',
};

/** The `accept` attribute of the file picker. */
export const ACCEPT = [
  ...Object.keys(EXTENSIONS).map((e) => `.${e}`),
  'text/csv',
  'application/json',
].join(',');

export const ACCEPTED_LABEL = 'CSV, JSON or Parquet';

function extension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
}

/** What a file is by its extension, else by its MIME type; null when neither says. */
export function uploadKind(file: { name: string; type?: string }): UploadKind | null {
  return (
    EXTENSIONS[extension(file.name)] ??
    MIME_TYPES[(file.type ?? '').toLowerCase().split(';')[0].trim()] ??
    null
  );
}

const MAX_NAME = 63;

/**
 * A table name from a file name: the extension dropped, lower-case, every run of characters other
 * than a-z and 0-9 turned into one `_`, no leading or trailing `_`, at most 63 characters. Never
 * empty (`file`), so the result always passes `FileName`.
 */
export function sanitizeFileName(fileName: string): string {
  const base = fileName.replace(/^.*[\\/]/, '');
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const name = stem
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_NAME)
    .replace(/_+$/, '');
  return name || 'file';
}

/** Why `name` cannot name an upload, or null when it can. */
export function fileNameError(name: string): string | null {
  if (name === '') return 'Enter a table name';
  const r = FileName.safeParse(name);
  if (!r.success) return `Invalid name: ${r.error.issues[0]?.message ?? 'not a valid name'}`;
  if (name.toLowerCase().startsWith('__upload_'))
    return 'Names starting with __upload_ are reserved';
  return null;
}

const UNITS = ['B', 'KB', 'MB', 'GB'];

/** 0 B, 512 B, 1.5 KB, 12 MB, 1.02 GB (1 KB = 1024 B, three significant digits). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '?';
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${Math.round(v)} B`;
  const digits = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  return `${Number(v.toFixed(digits))} ${UNITS[u]}`;
}

/** Whole percent sent, 0..100 (100 only when all is sent). */
export function percent(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  const p = Math.floor((Math.min(loaded, total) / total) * 100);
  return loaded >= total ? 100 : Math.min(p, 99);
}

/** `1.5 MB of 3 MB (50%)`. */
export function formatProgress(loaded: number, total: number): string {
  return `${formatBytes(Math.min(loaded, total))} of ${formatBytes(total)} (${percent(loaded, total)}%)`;
}

/** The query "Query it" opens. */
export function selectFileSql(name: string): string {
  return `SELECT * FROM ${FILES_DB}.${quoteIdent(name)} LIMIT 100`;
}

/** The first file of a drop, or null when the drag carries no files (text, links). */
export function droppedFile(dt: Pick<DataTransfer, 'files'> | null): File | null {
  return dt?.files && dt.files.length > 0 ? dt.files[0] : null;
}

/** Whether a drag carries files (its `types` list `Files`; the files themselves are hidden). */
export function dragHasFiles(dt: Pick<DataTransfer, 'types'> | null): boolean {
  return !!dt && Array.from(dt.types).includes('Files');
}

/** The line under the table name: why it cannot be used, that it replaces one, or the rule. */
export function nameHint(
  name: string,
  o: { chosen: boolean; error: string | null; exists: boolean },
): { text: string; error: boolean } {
  if (o.chosen && o.error) return { text: o.error, error: true };
  if (o.exists) return { text: `${FILES_DB}.${name} exists: uploading replaces it.`, error: false };
  return { text: 'Letters, digits and underscores.', error: false };
}

/** The progress bar's fill, its spoken value and the status line, while sending or loading. */
export function progressWords(s: Extract<UploadState, { kind: 'sending' | 'loading' }>): {
  pct: number;
  valueText: string;
  status: string;
} {
  if (s.kind === 'sending')
    return {
      pct: percent(s.loaded, s.total),
      valueText: formatProgress(s.loaded, s.total),
      status: `Uploading… ${formatProgress(s.loaded, s.total)}`,
    };
  return {
    pct: 100,
    valueText: `Sent; loading into ${FILES_DB}.${s.name}`,
    status: `Sent ${formatBytes(s.total)}; loading into ${FILES_DB}.${s.name}…`,
  };
}

/** `1,234 rows, 3 columns` (one row, one column; an unknown count says so). */
export function loadedCounts(rowCount: number | null | undefined, columns: number): string {
  const rows =
    rowCount == null
      ? 'unknown number of rows'
      : `${rowCount.toLocaleString('en-US')} ${rowCount === 1 ? 'row' : 'rows'}`;
  return `${rows}, ${columns} ${columns === 1 ? 'column' : 'columns'}`;
}
