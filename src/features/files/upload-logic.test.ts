import { describe, expect, it } from 'vitest';
import { FileName } from '../../../contract';
import {
  ACCEPT,
  dragHasFiles,
  droppedFile,
  fileNameError,
  formatBytes,
  formatProgress,
  loadedCounts,
  nameHint,
  percent,
  progressWords,
  sanitizeFileName,
  selectFileSql,
  uploadKind,
} from './upload-logic';

describe('sanitizeFileName', () => {
  it.each([
    ['Sales 2024.csv', 'sales_2024'],
    ['home-rentals.CSV', 'home_rentals'],
    ['data.v2.parquet', 'data_v2'],
    ['  --Weird__ name!!.json', 'weird_name'],
    ['Café crème.csv', 'cafe_creme'],
    ['C:\\Users\\me\\Downloads\\report.csv', 'report'],
    ['/tmp/x/y.tsv', 'y'],
    ['noext', 'noext'],
    ['.hidden', 'hidden'],
    ['日本語.csv', 'file'],
    ['___.csv', 'file'],
    ['__upload_abc.csv', 'upload_abc'],
    ['2024.csv', '2024'],
  ])('%s -> %s', (input, out) => {
    expect(sanitizeFileName(input)).toBe(out);
    expect(FileName.safeParse(sanitizeFileName(input)).success).toBe(true);
  });

  it('caps the name at 63 characters without a trailing underscore', () => {
    const name = sanitizeFileName(`${'a'.repeat(62)} b${'c'.repeat(20)}.csv`);
    expect(name).toBe('a'.repeat(62));
    expect(sanitizeFileName(`${'x'.repeat(100)}.csv`)).toHaveLength(63);
  });
});

describe('fileNameError', () => {
  it('accepts letters, digits and underscores', () => {
    expect(fileNameError('sales_2024')).toBeNull();
    expect(fileNameError('Mixed_Case')).toBeNull();
  });
  it('rejects empty, paths, dots, spaces, too long and reserved names', () => {
    expect(fileNameError('')).toMatch(/Enter a table name/);
    for (const bad of ['a/b', '../x', 'a.b', 'a b', 'x'.repeat(64), 'é'])
      expect(fileNameError(bad)).toMatch(/letters, digits and underscores/);
    expect(fileNameError('__upload_x')).toMatch(/reserved/);
  });
});

describe('uploadKind', () => {
  it('goes by extension first, then MIME type', () => {
    expect(uploadKind({ name: 'a.csv', type: '' })).toBe('csv');
    expect(uploadKind({ name: 'a.TSV' })).toBe('csv');
    expect(uploadKind({ name: 'a.jsonl', type: '' })).toBe('json');
    expect(uploadKind({ name: 'a.parquet', type: 'application/octet-stream' })).toBe('parquet');
    expect(uploadKind({ name: 'blob', type: 'text/csv; charset=utf-8' })).toBe('csv');
    expect(uploadKind({ name: 'blob', type: 'application/json' })).toBe('json');
    expect(uploadKind({ name: 'a.csv', type: 'application/vnd.ms-excel' })).toBe('csv');
  });
  it('is null for other files', () => {
    expect(uploadKind({ name: 'photo.png', type: 'image/png' })).toBeNull();
    expect(uploadKind({ name: 'data.xlsx', type: '' })).toBeNull();
  });
  it('lists the accepted extensions for the picker', () => {
    expect(ACCEPT.split(',')).toEqual(expect.arrayContaining(['.csv', '.json', '.parquet']));
  });
});

describe('progress formatting', () => {
  it('formats bytes with binary units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(10 * 1024 * 1024 + 1)).toBe('10 MB');
    expect(formatBytes(150 * 1024 * 1024)).toBe('150 MB');
    expect(formatBytes(1.5 * 1024 ** 3)).toBe('1.5 GB');
    expect(formatBytes(-1)).toBe('?');
  });
  it('computes whole percents, 100 only when everything is sent', () => {
    expect(percent(0, 0)).toBe(0);
    expect(percent(0, 100)).toBe(0);
    expect(percent(50, 100)).toBe(50);
    expect(percent(999, 1000)).toBe(99);
    expect(percent(1000, 1000)).toBe(100);
    expect(percent(2000, 1000)).toBe(100);
  });
  it('says bytes of total and percent', () => {
    expect(formatProgress(1024 * 1024, 4 * 1024 * 1024)).toBe('1 MB of 4 MB (25%)');
    expect(formatProgress(0, 2048)).toBe('0 B of 2 KB (0%)');
  });
});

describe('selectFileSql', () => {
  it('selects the first 100 rows of files.<name>', () => {
    expect(selectFileSql('sales')).toBe('SELECT * FROM files.sales LIMIT 100');
    expect(selectFileSql('2024')).toBe('SELECT * FROM files.`2024` LIMIT 100');
  });
});

describe('drag and drop', () => {
  it('tells file drags from others and takes the first file', () => {
    expect(dragHasFiles({ types: ['Files'] })).toBe(true);
    expect(dragHasFiles({ types: ['text/plain'] })).toBe(false);
    expect(dragHasFiles(null)).toBe(false);
    const f = new File(['a'], 'a.csv');
    const g = new File(['b'], 'b.csv');
    expect(droppedFile({ files: [f, g] } as unknown as DataTransfer)).toBe(f);
    expect(droppedFile({ files: [] } as unknown as DataTransfer)).toBeNull();
  });
});

describe('dialog words', () => {
  it('the name hint: the error once a file is chosen, a replace warning, else the rule', () => {
    expect(nameHint('', { chosen: true, error: 'Enter a table name', exists: false })).toEqual({
      text: 'Enter a table name',
      error: true,
    });
    expect(nameHint('', { chosen: false, error: 'Enter a table name', exists: false })).toEqual({
      text: 'Letters, digits and underscores.',
      error: false,
    });
    expect(nameHint('sales', { chosen: true, error: null, exists: true })).toEqual({
      text: 'files.sales exists: uploading replaces it.',
      error: false,
    });
  });

  it('progress: bytes sent while sending, the table being built after', () => {
    expect(progressWords({ kind: 'sending', name: 's', loaded: 512, total: 2048 })).toEqual({
      pct: 25,
      valueText: '512 B of 2 KB (25%)',
      status: 'Uploading… 512 B of 2 KB (25%)',
    });
    expect(progressWords({ kind: 'loading', name: 's', total: 2048 })).toEqual({
      pct: 100,
      valueText: 'Sent; loading into files.s',
      status: 'Sent 2 KB; loading into files.s…',
    });
  });

  it('counts rows and columns in words, singular for one, unknown when the server gave none', () => {
    expect(loadedCounts(1234, 3)).toBe('1,234 rows, 3 columns');
    expect(loadedCounts(1, 1)).toBe('1 row, 1 column');
    expect(loadedCounts(null, 2)).toBe('unknown number of rows, 2 columns');
  });
});
