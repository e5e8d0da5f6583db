import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../../api/catalog-parse';
import {
  databaseLook,
  groupBySchema,
  indent,
  modelTitle,
  nodeTitle,
  projectModels,
  selectStarSql,
  sortDatabases,
} from './explorer-tree';

const t = (name: string, schema?: string, kind: TableInfo['kind'] = 'table'): TableInfo => ({
  db: 'example_db',
  ...(schema ? { schema } : {}),
  name,
  kind,
  rawType: kind,
});

describe('groupBySchema', () => {
  it('groups by schema, schema-less first, sorted, models left out', () => {
    const groups = groupBySchema([
      t('z', 'demo_data'),
      t('a', 'demo_data'),
      t('top'),
      t('m', undefined, 'model'),
      t('b', 'aux'),
    ]);
    expect(groups.map((g) => [g.schema, g.tables.map((x) => x.name)])).toEqual([
      [undefined, ['top']],
      ['aux', ['b']],
      ['demo_data', ['a', 'z']],
    ]);
  });
});

describe('projectModels', () => {
  it('prefers the models table and falls back to MODEL tables', () => {
    expect(projectModels('p', [{ project: 'p', name: 'x', status: 'complete' }], [])).toHaveLength(
      1,
    );
    expect(
      projectModels('p', undefined, [t('m2', undefined, 'model'), t('v', undefined, 'view')]),
    ).toEqual([{ project: 'p', name: 'm2', status: 'unknown' }]);
  });
});

describe('helpers', () => {
  it('orders projects, data, then system databases', () => {
    expect(
      sortDatabases([
        { name: 'information_schema', type: 'system', engine: null },
        { name: 'files', type: 'data', engine: 'files' },
        { name: 'mindsdb', type: 'project', engine: null },
        { name: 'example_db', type: 'data', engine: 'duckdb' },
      ]).map((d) => d.name),
    ).toEqual(['mindsdb', 'example_db', 'files', 'information_schema']);
  });
  it('builds a quoted SELECT * LIMIT 100', () => {
    expect(selectStarSql({ db: 'example_db', schema: 'demo_data', name: 'home rentals' })).toBe(
      'SELECT * FROM example_db.demo_data.`home rentals` LIMIT 100;',
    );
  });
});

describe('node words', () => {
  it('a project says so, a data database names its engine, a system one has its own icon', () => {
    expect(databaseLook({ type: 'project', engine: null })).toEqual({
      icon: 'project',
      detail: 'project',
    });
    expect(databaseLook({ type: 'data', engine: 'postgres' })).toEqual({
      icon: 'db',
      detail: 'postgres',
    });
    expect(databaseLook({ type: 'system', engine: null })).toEqual({
      icon: 'system',
      detail: undefined,
    });
  });

  it('indents a level a step of 14 px from 6 px', () => {
    expect([1, 2, 3, 4].map(indent)).toEqual([6, 20, 34, 48]);
  });

  it('titles a node by its own title, else by how to insert its name, else its label', () => {
    expect(nodeTitle('rentals', '"rentals"')).toBe('rentals · double-click or drag to insert');
    expect(nodeTitle('models', 'mindsdb.models', 'The models table')).toBe('The models table');
    expect(nodeTitle('loading')).toBe('loading');
  });

  it('titles a model by its error first, else by what it predicts', () => {
    expect(modelTitle({ error: 'bad column', predict: 'price' })).toBe('Error: bad column');
    expect(modelTitle({ error: null, predict: 'price' })).toBe('Predicts price');
    expect(modelTitle({})).toBeUndefined();
  });
});
