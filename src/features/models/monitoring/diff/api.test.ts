import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelKeys } from '../../../../api/keys';
import { diffQuery } from './api';
import { diff } from './diff-fixture';
import { json } from '../../../../test/fixtures';

afterEach(() => vi.unstubAllGlobals());

describe('diff fetcher', () => {
  it('posts the other side and the rows, keyed by them, and parses the report', async () => {
    const fetchMock = vi.fn(async () => json(200, diff));
    vi.stubGlobal('fetch', fetchMock);
    const body = { against: '1', query: 'SELECT * FROM t', db: 'example_db' };
    const q = diffQuery({ project: 'mindsdb', model: 'rentals', version: 2 }, body);
    expect(q.queryKey).toEqual(
      modelKeys.monitoring('mindsdb', 'rentals', 2, 'diff', { ...body, limit: undefined }),
    );
    expect(await new QueryClient().fetchQuery(q)).toEqual(diff);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/projects/mindsdb/models/rentals.2/diff');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual(body);
  });

  it('reports the instance’s refusal in its words', async () => {
    vi.stubGlobal('fetch', async () =>
      json(400, { detail: "Models 'a' and 'b' predict different targets" }),
    );
    const q = diffQuery({ project: 'mindsdb', model: 'a' }, { against: 'b' });
    await expect(new QueryClient().fetchQuery(q)).rejects.toThrow(/different targets/);
  });
});
