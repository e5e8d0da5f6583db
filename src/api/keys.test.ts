import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { catalogKeys, fileKeys, modelKeys, statusKeys } from './keys';

function seeded() {
  const qc = new QueryClient();
  const keys = {
    list: modelKeys.list('mindsdb'),
    versions: modelKeys.versions('mindsdb', 'm'),
    describe: modelKeys.describe('mindsdb', 'm', 'features'),
    otherProject: modelKeys.list('other'),
    tables: catalogKeys.tables('files'),
    files: fileKeys.list(),
    projects: catalogKeys.projects(),
    status: statusKeys.all,
  };
  for (const k of Object.values(keys)) qc.setQueryData(k, 1);
  const invalid = () =>
    Object.fromEntries(
      Object.entries(keys).map(([n, k]) => [n, qc.getQueryState(k)?.isInvalidated ?? false]),
    );
  return { qc, invalid };
}

describe('query-key tree', () => {
  it("invalidates a project's model list and its models' details together, and nothing else", async () => {
    const { qc, invalid } = seeded();
    await qc.invalidateQueries({ queryKey: modelKeys.project('mindsdb') });
    expect(invalid()).toEqual({
      list: true,
      versions: true,
      describe: true,
      otherProject: false,
      tables: false,
      files: false,
      projects: false,
      status: false,
    });
  });

  it('a catalog refresh reaches databases, files, projects and every model, not the status', async () => {
    const { qc, invalid } = seeded();
    await qc.invalidateQueries({ queryKey: catalogKeys.all });
    expect(invalid()).toEqual({
      list: true,
      versions: true,
      describe: true,
      otherProject: true,
      tables: true,
      files: true,
      projects: true,
      status: false,
    });
  });

  it('keeps a model detail key apart from a list key of a project named like it', () => {
    expect(modelKeys.detail('p', 'list')).not.toEqual(modelKeys.list('p'));
  });
});
