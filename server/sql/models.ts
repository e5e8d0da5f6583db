/**
 * The model statements of the SQL surface (DESIGN 3.5): CREATE MODEL/PREDICTOR, RETRAIN,
 * FINETUNE, DROP MODEL, DESCRIBE, SHOW MODELS, and switching the active version with
 * `UPDATE models_versions SET active = 1 WHERE ...`. Queries that read models (predictions and the
 * models tables) live in models-select.ts. All state and work belongs to the ModelRegistry; these
 * handlers only parse and shape results.
 */
import type { Catalog } from '../catalog/catalog';
import { MODEL_COLUMNS } from '../models/models-table';
import type { ModelRegistry } from '../models/registry';
import type { ModelVersionRecord } from '../models/store';
import type { TrainingSource } from '../models/training-data';
import type { JsonValue } from '../engine/values';
import { badInput, notFound } from '../errors';
import { filterTail, queryVirtual } from './builtins';
import { Cursor } from './cursor';
import { quoteIdent, tokenize } from './lexer';
import { currentProject, dottedName, modelName, parseUsing } from './models-names';
import { modelSelectHandler } from './models-select';
import { toDuckDBSql, type SqlService } from './service';
import type { ExecContext, Outcome, Statement, StatementHandler } from './types';

const cursor = (st: Statement) => new Cursor(st.tokens, st.text);
const startsWith = (st: Statement, ...words: string[]) => cursor(st).isWord(...words);

/** Answers the model row(s) as a table with the models-table columns (what CREATE MODEL returns). */
function modelTable(
  svc: SqlService,
  models: ModelRegistry,
  recs: ModelVersionRecord[],
  ctx: ExecContext,
): Promise<Outcome> {
  return queryVirtual(
    svc,
    MODEL_COLUMNS,
    recs.map((r) => models.row(r)),
    '',
    ctx,
  );
}

/**
 * `FROM db (SELECT ...)`, `FROM db.table`, `FROM db.schema.table`, or `FROM (SELECT ...)` in the
 * current database. The query is stored ready for DuckDB (backticks become double quotes), since
 * it runs again for every RETRAIN.
 */
function parseSource(c: Cursor, db: string): TrainingSource {
  let fromDb = db;
  let select: string;
  if (c.isPunct('(')) select = c.parenthesized();
  else {
    const parts = c.dottedName('database name');
    if (c.isPunct('(')) {
      if (parts.length !== 1) c.fail('expected FROM <database> (SELECT ...)');
      fromDb = parts[0];
      select = c.parenthesized();
    } else {
      if (parts.length < 2)
        c.fail('expected FROM <database> (SELECT ...) or FROM <database>.<table>');
      fromDb = parts[0];
      select = `SELECT * FROM ${parts.slice(1).map(quoteIdent).join('.')}`;
    }
  }
  const tokens = tokenize(select);
  if (tokens.some((t) => t.kind === 'param')) {
    throw badInput(
      'A model FROM query cannot use :parameters (it runs again on RETRAIN, where they have no value)',
    );
  }
  return { fromDb, select: toDuckDBSql(tokens, select) };
}

/** Rejects the time-series clauses of MindsDB's CREATE MODEL, which this engine does not support. */
function rejectTimeSeries(c: Cursor): void {
  for (const w of ['ORDER', 'GROUP', 'WINDOW', 'HORIZON']) {
    if (c.isWord(w)) {
      throw badInput(
        `${w} ... in CREATE MODEL (time-series models) is not supported by this instance's AutoML engine`,
      );
    }
  }
}

function describeTable(rows: Record<string, JsonValue>[], fallbackColumns: string[]): Outcome {
  const columns = rows.length > 0 ? Object.keys(rows[0]) : fallbackColumns;
  return {
    result: {
      type: 'table',
      column_names: columns,
      data: rows.map((r) => columns.map((c) => r[c] ?? null)),
    },
  };
}

export function modelHandlers(svc: SqlService, models: ModelRegistry): StatementHandler[] {
  const catalog: Catalog = svc.catalog;

  return [
    modelSelectHandler(svc, models),
    {
      name: 'create-model',
      match: (st) => {
        const c = cursor(st);
        if (!c.acceptWord('CREATE')) return false;
        c.acceptWord('OR', 'REPLACE');
        return c.isWord('MODEL') || c.isWord('PREDICTOR');
      },
      async run(st, ctx) {
        const c = cursor(st);
        c.expectWord('CREATE');
        let orReplace = c.acceptWord('OR', 'REPLACE');
        if (!c.acceptWord('MODEL')) c.expectWord('PREDICTOR');
        const ifNotExists = c.acceptWord('IF', 'NOT', 'EXISTS');
        orReplace = c.acceptWord('OR', 'REPLACE') || orReplace;
        const ref = modelName(dottedName(c, 'model name'), ctx.db, catalog, false);
        if (!c.acceptWord('FROM')) {
          throw badInput(
            'CREATE MODEL needs training data: CREATE MODEL name FROM <database> (SELECT ...) PREDICT <column>',
          );
        }
        const source = parseSource(c, ctx.db);
        c.expectWord('PREDICT');
        const target = c.dottedName('target column');
        if (c.isPunct(','))
          throw badInput('A model predicts one column; PREDICT names more than one');
        rejectTimeSeries(c);
        const using = c.acceptWord('USING') ? parseUsing(c) : undefined;
        rejectTimeSeries(c);
        if (!c.done()) c.fail('unexpected text at the end of CREATE MODEL');
        const { record } = await models.create({
          ...ref,
          ...source,
          target: target[target.length - 1],
          using,
          orReplace,
          ifNotExists,
        });
        return modelTable(svc, models, [record], ctx);
      },
    },
    {
      name: 'retrain-model',
      match: (st) => startsWith(st, 'RETRAIN'),
      async run(st, ctx) {
        const c = cursor(st);
        c.expectWord('RETRAIN');
        if (!c.acceptWord('MODEL')) c.acceptWord('PREDICTOR');
        const ref = modelName(dottedName(c, 'model name'), ctx.db, catalog, false);
        const source = c.acceptWord('FROM') ? parseSource(c, ctx.db) : undefined;
        const target = c.acceptWord('PREDICT') ? c.dottedName('target column') : undefined;
        const using = c.acceptWord('USING') ? parseUsing(c) : undefined;
        if (!c.done()) c.fail('unexpected text at the end of RETRAIN');
        const rec = await models.retrain(ref, {
          ...source,
          target: target?.[target.length - 1],
          using,
        });
        return modelTable(svc, models, [rec], ctx);
      },
    },
    {
      name: 'finetune-model',
      match: (st) => startsWith(st, 'FINETUNE'),
      async run(st, ctx) {
        const c = cursor(st);
        c.expectWord('FINETUNE');
        if (!c.acceptWord('MODEL')) c.acceptWord('PREDICTOR');
        const ref = modelName(dottedName(c, 'model name'), ctx.db, catalog, false);
        if (!c.acceptWord('FROM'))
          throw badInput('FINETUNE needs new data: FINETUNE model FROM <database> (SELECT ...)');
        const source = parseSource(c, ctx.db);
        const using = c.acceptWord('USING') ? parseUsing(c) : undefined;
        if (!c.done()) c.fail('unexpected text at the end of FINETUNE');
        const rec = await models.finetune(ref, source, using);
        return modelTable(svc, models, [rec], ctx);
      },
    },
    {
      name: 'drop-model',
      match: (st) => startsWith(st, 'DROP', 'MODEL') || startsWith(st, 'DROP', 'PREDICTOR'),
      async run(st, ctx) {
        const c = cursor(st);
        c.expectWord('DROP');
        if (!c.acceptWord('MODEL')) c.expectWord('PREDICTOR');
        const ifExists = c.acceptWord('IF', 'EXISTS');
        const parts = dottedName(c, 'model name');
        if (!c.done()) c.fail('unexpected text after the model name');
        const ref = modelName(parts, ctx.db, catalog, true);
        if (ref.version !== undefined) {
          if (
            ifExists &&
            !models.versions(ref.project, ref.name).some((v) => v.version === ref.version)
          ) {
            return { result: { type: 'ok', affected_rows: 0 } };
          }
          models.dropVersion({ ...ref, version: ref.version });
          return { result: { type: 'ok', affected_rows: 1 } };
        }
        const dropped = models.drop(ref, ifExists);
        return { result: { type: 'ok', affected_rows: dropped ? 1 : 0 } };
      },
    },
    {
      name: 'show-models',
      match: (st) => {
        const c = cursor(st);
        if (!c.acceptWord('SHOW')) return false;
        c.acceptWord('FULL');
        return c.isWord('MODELS') || c.isWord('PREDICTORS');
      },
      async run(st, ctx) {
        const c = cursor(st);
        c.expectWord('SHOW');
        c.acceptWord('FULL');
        if (!c.acceptWord('MODELS')) c.expectWord('PREDICTORS');
        let project = currentProject(catalog, ctx.db);
        if (c.acceptWord('FROM') || c.acceptWord('IN'))
          project = catalog.requireProject(c.dottedName('project name')[0]);
        const tail = filterTail(c, 'NAME');
        return queryVirtual(svc, MODEL_COLUMNS, models.rows(project), tail, ctx);
      },
    },
    {
      name: 'describe-model',
      match: (st) => {
        const c = cursor(st);
        if (!c.acceptWord('DESCRIBE') && !c.acceptWord('DESC')) return false;
        if (c.isWord('MODEL') || c.isWord('PREDICTOR')) return true;
        const first = c.peek();
        if (!first || (first.kind !== 'word' && first.kind !== 'ident')) return false;
        // Only names that could be a model; the rest (tables, SELECT ...) is DuckDB's DESCRIBE.
        return st.tokens.some(
          (t) => (t.kind === 'word' || t.kind === 'ident') && models.isModelName(t.value),
        );
      },
      async run(st, ctx) {
        const c = cursor(st);
        if (!c.acceptWord('DESCRIBE')) c.expectWord('DESC');
        const explicit = c.acceptWord('MODEL') || c.acceptWord('PREDICTOR');
        const parts = dottedName(c, 'model name');
        if (!c.done()) {
          if (explicit) c.fail('unexpected text after the model name');
          return svc.runOnEngine(st, ctx);
        }
        // Without MODEL, a bare name means a model only inside a project (else it is a table).
        if (!explicit && !catalog.isProject(ctx.db) && !catalog.isProject(parts[0]))
          return svc.runOnEngine(st, ctx);
        const target = resolveDescribe(parts, ctx.db, catalog, models);
        if (!target) {
          if (explicit) throw notFound(`Model '${parts.join('.')}' does not exist`);
          return svc.runOnEngine(st, ctx);
        }
        const rows = await models.describe(target.ref, target.attribute);
        return describeTable(rows, []);
      },
    },
    {
      name: 'update-models-versions',
      match: (st) => {
        const c = cursor(st);
        if (!c.acceptWord('UPDATE')) return false;
        try {
          const parts = c.dottedName();
          const last = parts[parts.length - 1].toLowerCase();
          return last === 'models_versions' || last === 'models';
        } catch {
          return false;
        }
      },
      async run(st, ctx) {
        const c = cursor(st);
        c.expectWord('UPDATE');
        const parts = c.dottedName('table name');
        let project =
          parts.length > 1 ? catalog.projectInfo(parts[0])?.name : currentProject(catalog, ctx.db);
        if (!project) return svc.runOnEngine(st, ctx);
        c.expectWord('SET');
        const col = c.dottedName('column');
        c.expectPunct('=');
        const value = c.literal();
        if (col[col.length - 1].toLowerCase() !== 'active' || c.isPunct(',')) {
          throw badInput(
            'Only the active version can be changed: UPDATE models_versions SET active = 1 WHERE name = ... AND version = ...',
          );
        }
        if (!(value === true || value === 1 || value === '1' || value === 'true')) {
          throw badInput(
            'Deactivate a version by activating another one: SET active = 1 on the version to use',
          );
        }
        c.expectWord('WHERE');
        const where: Record<string, string | number | boolean | null> = {};
        do {
          const k = c.dottedName('column');
          c.expectPunct('=');
          where[k[k.length - 1].toLowerCase()] = c.literal();
        } while (c.acceptWord('AND'));
        if (!c.done()) c.fail('expected conditions name = ... AND version = ...');
        if (where.project !== undefined) project = catalog.requireProject(String(where.project));
        if (where.name === undefined || where.version === undefined) {
          throw badInput("Name the version to activate: WHERE name = 'model' AND version = n");
        }
        const version = Number(where.version);
        if (!Number.isInteger(version))
          throw badInput(`version must be an integer, got ${JSON.stringify(where.version)}`);
        models.setActive({ project, name: String(where.name), version });
        return { result: { type: 'ok', affected_rows: 1 } };
      },
    },
  ];
}

const ATTRIBUTE_WORDS = new Set(['info', 'features', 'model', 'progress']);

/**
 * `DESCRIBE [p.]m[.version][.attribute]`: the attribute is a trailing non-numeric part when the
 * rest names a model; a trailing unknown word after a model is an attribute too (and the
 * registry answers with the allowed ones) rather than falling through to DuckDB.
 */
function resolveDescribe(
  parts: string[],
  db: string,
  catalog: Catalog,
  models: ModelRegistry,
): { ref: { project: string; name: string; version?: number }; attribute?: string } | null {
  const asModel = (ps: string[]) => {
    try {
      const ref = modelName(ps, db, catalog, true);
      return models.exists(ref.project, ref.name) ? ref : null;
    } catch {
      return null;
    }
  };
  const last = parts[parts.length - 1];
  if (parts.length > 1 && !/^\d+$/.test(last)) {
    const ref = asModel(parts.slice(0, -1));
    if (ref && (ATTRIBUTE_WORDS.has(last.toLowerCase()) || !asModel(parts)))
      return { ref, attribute: last };
  }
  const ref = asModel(parts);
  return ref ? { ref } : null;
}
