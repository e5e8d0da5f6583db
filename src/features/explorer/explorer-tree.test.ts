import { describe, expect, it } from 'vitest';
import type { TableInfo } from '../../api/catalog-parse';
import { groupBySchema, projectModels, selectStarSql, sortDatabases } from './explorer-tree';

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
