import { describe, expect, it } from 'vitest';
import { asVersion, modelUrlParams } from '../features/models/nav';
import {
  MAX_URL_SQL_CHARS,
  decodeBase64Url,
  decodeHash,
  encodeBase64Url,
  encodeHash,
  type UrlState,
} from './url-state';

describe('base64url', () => {
  it('round-trips unicode SQL without +, / or = characters', () => {
    const sql = "SELECT 'héllo 🌍' AS x -- ü?>>>";
    const enc = encodeBase64Url(sql);
    expect(enc).not.toMatch(/[+/=]/);
    expect(decodeBase64Url(enc)).toBe(sql);
  });
  it('returns undefined for garbage', () => {
    expect(decodeBase64Url('%%%')).toBeUndefined();
    expect(decodeBase64Url('_w')).toBeUndefined(); // invalid UTF-8
  });
});

describe('encodeHash / decodeHash', () => {
  it('puts the SQL in #sql= and reads it back', () => {
    const hash = encodeHash({ view: 'sql', sql: 'SELECT 1', extra: {} });
    expect(hash).toBe(`#sql=${encodeBase64Url('SELECT 1')}`);
    expect(decodeHash(hash)).toEqual({ view: 'sql', sql: 'SELECT 1', extra: {} });
  });
  it('keeps the view and other keys', () => {
    const hash = encodeHash({ view: 'models', extra: { model: 'mindsdb.m' } });
    expect(decodeHash(hash)).toEqual({ view: 'models', extra: { model: 'mindsdb.m' } });
  });
  it('defaults to the sql view and ignores a broken sql value or a bad view name', () => {
    expect(decodeHash('')).toEqual({ view: 'sql', extra: {} });
    expect(decodeHash('#sql=%%%&view=<script>')).toEqual({ view: 'sql', extra: {} });
  });
  it('leaves out SQL too long for a URL', () => {
    expect(encodeHash({ view: 'sql', sql: 'x'.repeat(MAX_URL_SQL_CHARS + 1), extra: {} })).toBe('');
  });
});

describe('model page URLs', () => {
  it('round-trips a pinned model version through the hash', () => {
    const state: UrlState = { view: 'model', extra: modelUrlParams('p', 'm', 'predict', 2) };
    const hash = encodeHash(state);
    const back = decodeHash(hash);
    expect(back.view).toBe('model');
    expect(back.extra).toMatchObject({ project: 'p', model: 'm', tab: 'predict', version: '2' });
    expect(asVersion(back.extra.version)).toBe(2);
  });
});

describe('a shared link', () => {
  it('carries the SQL, the database and the run request, and reads them back', () => {
    const state: UrlState = {
      view: 'sql',
      sql: 'SELECT 1',
      db: 'example_db',
      run: true,
      extra: {},
    };
    const hash = encodeHash(state);
    expect(hash).toBe(`#sql=${encodeBase64Url('SELECT 1')}&db=example_db&run=1`);
    expect(decodeHash(hash)).toEqual(state);
  });
  it('only takes run=1 as a request to run, and ignores an oversized database name', () => {
    expect(decodeHash('#run=true').run).toBeUndefined();
    expect(decodeHash(`#db=${'x'.repeat(300)}`).db).toBeUndefined();
  });
});
