import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelKeys } from '../../../../api/keys';
import { effectsQuery } from './api';
import { effects } from './effects-fixture';
import { json } from '../../../../test/fixtures';

afterEach(() => vi.unstubAllGlobals());

describe('effects fetcher', () => {
  it('asks the versioned route for the top inputs and parses the report', async () => {
    const fetchMock = vi.fn(async () => json(200, effects));
    vi.stubGlobal('fetch', fetchMock);
    const q = effectsQuery({ project: 'mindsdb', model: 'rentals', version: 3 }, { top: 5 });
    expect(q.queryKey).toEqual(
      modelKeys.monitoring('mindsdb', 'rentals', 3, 'effects', {
        column: undefined,
        class: undefined,
        top: 5,
      }),
    );
    expect(await new QueryClient().fetchQuery(q)).toEqual(effects);
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe(
      '/api/projects/mindsdb/models/rentals.3/effects?top=5',
    );
  });

  it('puts a column and a class in the URL and the key, and reports a refusal', async () => {
    const fetchMock = vi.fn(async () => json(400, { detail: "Unknown class 'Maybe': Yes, No" }));
    vi.stubGlobal('fetch', fetchMock);
    const q = effectsQuery(
      { project: 'mindsdb', model: 'churn' },
      { column: 'tenure', class: 'Maybe' },
    );
    expect(q.queryKey).toContain('active');
    await expect(new QueryClient().fetchQuery(q)).rejects.toThrow(/400: Unknown class 'Maybe'/);
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe(
      '/api/projects/mindsdb/models/churn/effects?column=tenure&class=Maybe',
    );
  });
});
