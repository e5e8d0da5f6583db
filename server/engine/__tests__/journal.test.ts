/**
 * The crash journal (issue 22, item 2b): statements are written down before they run and cleared
 * after; after a native crash the supervisor records the ones still written and the next
 * instance refuses them; a kill from outside records them but refuses nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { crashResponse } from '../../supervisor/supervisor';
import {
  CrashJournal,
  Quarantine,
  crashHistory,
  readJournal,
  recordCrash,
  statementHash,
} from '../journal';

const dirs: string[] = [];
const dir = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-test-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('CrashJournal', () => {
  it('holds exactly the statements still running, client statements first', () => {
    const d = dir();
    const j = new CrashJournal(d);
    const a = j.begin('SELECT 1', statementHash('SELECT 1'));
    const b = j.begin("SELECT json_serialize_sql('x')", null);
    const c = j.begin('  DELETE FROM t  ', statementHash('DELETE FROM t'));
    j.end(a);
    // A freed slot is reused.
    const e = j.begin('SELECT 2', statementHash('SELECT 2'));
    expect(e).toBe(a);
    j.end(e);
    const running = readJournal(d);
    expect(running.map((r) => r.text)).toEqual([
      '  DELETE FROM t  ',
      "SELECT json_serialize_sql('x')",
    ]);
    expect(running[0].hash).toBe(statementHash('DELETE FROM t'));
    expect(running[1].hash).toBeNull();
    j.end(b);
    j.end(c);
    expect(readJournal(d)).toEqual([]);
    j.close();
  });

  it('keeps long statements as a prefix', () => {
    const d = dir();
    const j = new CrashJournal(d);
    j.begin(`SELECT '${'x'.repeat(10_000)}'`, statementHash('long'));
    expect(readJournal(d)[0].text.length).toBeLessThan(2048);
    j.close();
  });
});

describe('recordCrash and Quarantine', () => {
  it('after a native crash refuses the client statements that were running', () => {
    const d = dir();
    const j = new CrashJournal(d);
    j.begin('SELECT boom()', statementHash('SELECT boom()'));
    j.begin('CHECKPOINT', null);
    const rec = recordCrash(d, { signal: 'SIGSEGV', code: null }, 3600_000);
    expect(rec).toMatchObject({ signal: 'SIGSEGV', quarantined: true });
    expect(rec.statements.map((s) => s.text)).toEqual(['SELECT boom()', 'CHECKPOINT']);
    const q = new Quarantine(d);
    expect(q.size).toBe(1);
    expect(q.reason('  SELECT boom()\n')).toMatch(/was running when the engine crashed \(SIGSEGV/);
    expect(q.reason('SELECT 1')).toBeNull();
    expect(crashHistory(d)).toHaveLength(1);
    j.close();
  });

  it('after a kill from outside records the statements and refuses none', () => {
    const d = dir();
    const j = new CrashJournal(d);
    j.begin('SELECT 1', statementHash('SELECT 1'));
    const rec = recordCrash(d, { signal: 'SIGKILL', code: null }, 3600_000);
    expect(rec.quarantined).toBe(false);
    expect(new Quarantine(d).reason('SELECT 1')).toBeNull();
    j.close();
  });

  it('lets a quarantine run out', () => {
    const d = dir();
    const j = new CrashJournal(d);
    j.begin('SELECT boom()', statementHash('SELECT boom()'));
    recordCrash(d, { signal: 'SIGBUS', code: null }, -1);
    expect(new Quarantine(d).reason('SELECT boom()')).toBeNull();
    j.close();
  });
});

describe('crashResponse', () => {
  const parse = (raw: string) => {
    const [head, body] = raw.split('\r\n\r\n');
    return { head, body: JSON.parse(body) };
  };

  it('answers the SQL endpoint in its envelope and other routes in problem details', () => {
    const sql = parse(crashResponse('POST', '/api/sql/query', 'SIGSEGV', true));
    expect(sql.head).toMatch(
      /^HTTP\/1\.1 503 Service Unavailable\r\nContent-Type: application\/json/,
    );
    expect(sql.body).toMatchObject({ type: 'error', error_code: 99, column_names: [] });
    expect(sql.body.error_message).toMatch(/refused from now on/);
    const rest = parse(
      crashResponse('POST', '/api/projects/mindsdb/models/m/predict', 'SIGSEGV', false),
    );
    expect(rest.head).toMatch(/Content-Type: application\/problem\+json/);
    expect(rest.body).toMatchObject({ title: 'Service Unavailable', error_code: 99 });
    expect(rest.body.detail).not.toMatch(/refused/);
    expect(rest.head).toMatch(/Content-Length: (\d+)/);
    const len = Number(/Content-Length: (\d+)/.exec(rest.head)![1]);
    expect(len).toBe(Buffer.byteLength(JSON.stringify(rest.body)));
  });
});
