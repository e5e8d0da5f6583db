/**
 * Whether a script only reads (so a shared link may run it on open without asking). A link is
 * input anyone can craft, so this errs on the side of asking: a statement counts as read-only only
 * when it starts with a reading keyword and no word outside strings, quoted names and comments is
 * one that writes or changes the instance (INSERT, CREATE, DROP, RETRAIN, ATTACH, SET, COPY, ...).
 * A false alarm costs one click; a missed write would run an attacker's statement.
 */
import { splitStatements } from './split';

const READING_STARTS = new Set([
  'SELECT',
  'WITH',
  'SHOW',
  'DESCRIBE',
  'DESC',
  'EXPLAIN',
  'VALUES',
  'FROM',
  'TABLE',
  'SUMMARIZE',
]);

const WRITING_WORDS = new Set([
  'INSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'UPSERT',
  'CREATE',
  'DROP',
  'ALTER',
  'RENAME',
  'TRUNCATE',
  'REPLACE',
  'ATTACH',
  'DETACH',
  'COPY',
  'EXPORT',
  'IMPORT',
  'INSTALL',
  'LOAD',
  'SET',
  'RESET',
  'CALL',
  'PRAGMA',
  'VACUUM',
  'CHECKPOINT',
  'GRANT',
  'REVOKE',
  'BEGIN',
  'COMMIT',
  'ROLLBACK',
  'RETRAIN',
  'FINETUNE',
  'EVALUATE',
  'USE',
]);

/** The bare words of a statement: strings, quoted identifiers and comments left out. */
export function codeWords(sql: string): string[] {
  const words: string[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i];
    if (c === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? n : nl + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      const end = sql.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < n && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      i = j + 1;
    } else if (c === '$' && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 40))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i, i + 40))![0];
      const end = sql.indexOf(tag, i + tag.length);
      i = end < 0 ? n : end + tag.length;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_$]/.test(sql[j])) j += 1;
      words.push(sql.slice(i, j).toUpperCase());
      i = j;
    } else {
      i += 1;
    }
  }
  return words;
}

export function isReadOnlyStatement(sql: string): boolean {
  const words = codeWords(sql);
  if (words.length === 0 || !READING_STARTS.has(words[0])) return false;
  return !words.some((w) => WRITING_WORDS.has(w));
}

/** True when every statement of the script only reads (an empty script reads nothing: false). */
export function isReadOnlyScript(script: string): boolean {
  const statements = splitStatements(script);
  return statements.length > 0 && statements.every((s) => isReadOnlyStatement(s.sql));
}
