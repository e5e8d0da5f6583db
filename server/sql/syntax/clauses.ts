/**
 * Clauses several of MindsDB's statements share: USING options, IF [NOT] EXISTS, embedded
 * queries, the end of a statement, and MindsDB objects this instance refuses by name.
 */
import { Cursor, isOp } from './tokens';
import type { Embedded, MindsStatement, UsingValue } from './statement';

/** MindsDB objects this instance does not have: refused by name instead of a parser error. */
const UNSUPPORTED_OBJECTS: Record<string, string> = {
  JOB: 'jobs',
  JOBS: 'jobs',
  TRIGGER: 'triggers',
  TRIGGERS: 'triggers',
  CHATBOT: 'chatbots',
  CHATBOTS: 'chatbots',
  AGENT: 'agents',
  AGENTS: 'agents',
  SKILL: 'skills',
  SKILLS: 'skills',
  KNOWLEDGE_BASE: 'knowledge bases',
  KNOWLEDGE_BASES: 'knowledge bases',
  DATASOURCE: 'datasources (use CREATE DATABASE)',
  DATASOURCES: 'datasources (use SHOW DATABASES)',
  INTEGRATION: 'integrations (use CREATE DATABASE)',
  PUBLICATION: 'publications',
  PUBLICATIONS: 'publications',
  STREAM: 'streams',
  STREAMS: 'streams',
  DATASET: 'datasets',
  DATASETS: 'datasets',
};

export const QUERY_START = new Set(['SELECT', 'WITH', 'FROM', 'VALUES', 'TABLE']);

export function end(c: Cursor, what: string): void {
  if (!c.done()) c.fail(`unexpected text at the end of ${what}`);
}

export function ifNotExists(c: Cursor): boolean {
  return c.acceptWord('IF', 'NOT', 'EXISTS');
}

export function ifExists(c: Cursor): boolean {
  return c.acceptWord('IF', 'EXISTS');
}

export function refusedObject(c: Cursor, verb: string): MindsStatement | null {
  let w = c.peek()?.word ?? '';
  if (w === 'KNOWLEDGE' && c.peek(1)?.word === 'BASE') w = 'KNOWLEDGE_BASE';
  if (w === 'KNOWLEDGE' && c.peek(1)?.word === 'BASES') w = 'KNOWLEDGE_BASES';
  if (w === 'ANOMALY' && c.peek(1)?.word === 'DETECTION') {
    return { kind: 'refused', construct: `${verb} ANOMALY DETECTION MODEL` };
  }
  const what = UNSUPPORTED_OBJECTS[w];
  if (!what) return null;
  return {
    kind: 'refused',
    construct: `${verb} ${w.replace('_', ' ')}`,
    hint: `this instance has no ${what}`,
  };
}

/** USING k = v, a.b = v2 (dotted keys nest; values are literals, JSON, or bare words). */
export function parseUsing(c: Cursor): Record<string, UsingValue> {
  const out: Record<string, UsingValue> = {};
  // The Python SDK renders empty options as a bare `USING`.
  if (c.done()) return out;
  do {
    const key = c.dottedName('option name');
    c.expectOp('=');
    const value = usingValue(c);
    let o = out;
    for (const k of key.slice(0, -1)) {
      const next = o[k];
      o = o[k] = next && typeof next === 'object' && !Array.isArray(next) ? next : {};
    }
    o[key[key.length - 1]] = value;
  } while (c.acceptOp(','));
  return out;
}

/** A JSON-ish value: objects and arrays with single or double quotes, literals, bare words. */
export function usingValue(c: Cursor): UsingValue {
  if (c.acceptOp('{')) {
    const out: Record<string, UsingValue> = {};
    while (!c.acceptOp('}')) {
      const k = c.peek();
      if (!k || (k.kind !== 'string' && k.kind !== 'quoted' && k.kind !== 'word')) {
        c.fail(`expected a key in {...}`);
      }
      c.i++;
      const colon = c.peek();
      if (colon?.kind === 'param') {
        // `"ssl":true` scans as the key and a parameter `:true`.
        c.i++;
        const w = colon.value.toLowerCase();
        out[k.value] = w === 'true' ? true : w === 'false' ? false : w === 'null' ? null : w;
      } else {
        if (!c.acceptOp(':') && !c.acceptOp('=')) c.fail(`expected ':' after '${k.value}'`);
        out[k.value] = usingValue(c);
      }
      if (!c.acceptOp(',') && !c.isOp('}')) c.fail(`expected ',' or '}'`);
    }
    return out;
  }
  if (c.acceptOp('[')) {
    const arr: UsingValue[] = [];
    while (!c.acceptOp(']')) {
      arr.push(usingValue(c));
      if (!c.acceptOp(',') && !c.isOp(']')) c.fail(`expected ',' or ']'`);
    }
    return arr;
  }
  const t = c.peek();
  if (t?.kind === 'word' && !['TRUE', 'FALSE', 'NULL'].includes(t.word)) {
    // A bare word, or a call such as Filter(x = 1): kept as text.
    c.i++;
    if (c.isOp('(')) {
      const p = c.parenthesized();
      return `${t.raw}(${p.text})`;
    }
    return t.value;
  }
  return c.literal('an option value');
}

/** `[AS] (query)`, `AS query` or MySQL's bare `query` after a table name; null for a column list. */
export function tableQuery(c: Cursor): Embedded | null {
  const as = c.acceptWord('AS');
  if (c.isOp('(')) {
    const inner = c.peek(1);
    if (!as && !(inner?.word && QUERY_START.has(inner.word)) && !isOp(inner, '(')) return null;
    const start = c.i;
    const p = c.parenthesized();
    if (c.done()) return p;
    // `AS (SELECT ...) UNION (SELECT ...)`: the whole rest is the query.
    c.i = start;
  } else if (!as && !(c.peek()?.word && QUERY_START.has(c.peek()!.word))) return null;
  const r = c.rest();
  if (!r.text) c.fail('expected a query');
  return r;
}

export function isQueryParen(c: Cursor): boolean {
  const inner = c.peek(1);
  return !!inner && ((!!inner.word && QUERY_START.has(inner.word)) || isOp(inner, '('));
}
