import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelKeys } from '../../../../api/keys';
import { computeDriftMutation, latestDriftQuery } from './api';
import { report } from './report-fixture';
import { similarTablesQuery } from './similar-tables';
import { json } from '../../../../test/fixtures';

afterEach(() => vi.unstubAllGlobals());

describe('drift fetchers', () => {
  it('read the latest report of the pinned version, parsed with the contract', async () => {
    const fetchMock = vi.fn(async () => json(200, report));
    vi.stubGlobal('fetch', fetchMock);
    const q = latestDriftQuery({ project: 'my proj', model: 'rentals', version: 2 });
    expect(q.queryKey).toEqual(modelKeys.monitoring('my proj', 'rentals', 2, 'drift'));
    expect(await new QueryClient().fetchQuery(q)).toEqual(report);
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe(
      '/api/projects/my%20proj/models/rentals.2/drift',
    );
  });

  it('answer null when no report was computed yet, and fail on other errors', async () => {
    vi.stubGlobal('fetch', async () => json(404, { detail: 'No drift report yet' }));
    const q = latestDriftQuery({ project: 'mindsdb', model: 'rentals' });
    expect(q.queryKey).toContain('active');
    expect(await new QueryClient().fetchQuery(q)).toBeNull();
    vi.stubGlobal('fetch', async () => json(409, { detail: 'still training' }));
    await expect(new QueryClient().fetchQuery(q)).rejects.toThrow(/409: still training/);
  });

  it('refuse an answer that is not a drift report', async () => {
    vi.stubGlobal('fetch', async () => json(200, { ...report, summary: null }));
    const q = latestDriftQuery({ project: 'mindsdb', model: 'rentals' });
    await expect(new QueryClient().fetchQuery(q)).rejects.toThrow(/Unexpected response/);
  });

  it('compute a report with POST and make it the latest without a refetch', async () => {
    const fetchMock = vi.fn(async () => json(200, report));
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();
    const t = { project: 'mindsdb', model: 'rentals' };
    const m = computeDriftMutation(t, client);
    const body = { query: 'SELECT * FROM t', db: 'example_db' };
    const r = await m.mutationFn(body);
    m.onSuccess(r);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/projects/mindsdb/models/rentals/drift');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual(body);
    expect(client.getQueryData(latestDriftQuery(t).queryKey)).toEqual(report);
  });

  it('look for similar tables with the name escaped for LIKE', async () => {
    const fetchMock = vi.fn(async () =>
      json(200, {
        type: 'table',
        column_names: ['table_catalog', 'table_schema', 'table_name'],
        data: [['example_db', 'demo_data', 'home_rentals_this_month']],
        context: { db: 'mindsdb' },
      }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const rows = await new QueryClient().fetchQuery(
      similarTablesQuery('mindsdb', 'rentals', 'home_rentals'),
    );
    expect(rows).toEqual([
      { db: 'example_db', schema: 'demo_data', name: 'home_rentals_this_month' },
    ]);
    const init = (fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1];
    expect(JSON.parse(String(init.body)).query).toContain("LIKE 'home\\_rentals\\_%' ESCAPE '\\'");
  });
});
