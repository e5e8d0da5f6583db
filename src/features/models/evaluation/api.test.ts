import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelKeys } from '../../../api/keys';
import { cardUrl, groupsQuery, leaderboardQuery, saveThresholdMutation, slicesQuery } from './api';
import { json } from '../../../test/fixtures';

afterEach(() => vi.unstubAllGlobals());

const board = {
  version: 2,
  candidates: [
    {
      name: 'gbm',
      kind: 'gbm',
      score: { name: 'accuracy', value: 0.9 },
      other: null,
      fit_seconds: 1,
      predict_rows_per_second: 1000,
      size_bytes: 10,
      selected: true,
      using: 'gbm',
    },
  ],
  warnings: [],
};

describe('evaluation fetchers', () => {
  it('ask the versioned view and parse it with the contract', async () => {
    const fetchMock = vi.fn(async () => json(200, board));
    vi.stubGlobal('fetch', fetchMock);
    const q = leaderboardQuery({ project: 'mindsdb', model: 'churn', version: 2 });
    expect(q.queryKey).toEqual(modelKeys.evaluation('mindsdb', 'churn', 2, 'leaderboard', {}));
    const data = await new QueryClient().fetchQuery(q);
    expect(data.candidates[0].score.value).toBe(0.9);
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe(
      '/api/projects/mindsdb/models/churn.2/evaluation/leaderboard',
    );
  });

  it('put the parameters in the URL and the key, leaving out empty ones', async () => {
    const fetchMock = vi.fn(async () => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    const q = slicesQuery({ project: 'mindsdb', model: 'churn' }, "age > 50 AND geo = 'DE'");
    expect(q.queryKey).toContain('active');
    await expect(new QueryClient().fetchQuery(q)).rejects.toThrow();
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe(
      '/api/projects/mindsdb/models/churn/evaluation/slices?where=age+%3E+50+AND+geo+%3D+%27DE%27',
    );
    const g = groupsQuery({ project: 'mindsdb', model: 'churn' }, { column: 'gender' });
    expect(g.queryKey[g.queryKey.length - 1]).toEqual({ column: 'gender' });
  });

  it('refuse a response that does not match the contract', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => json(200, { version: 'two' })),
    );
    await expect(
      new QueryClient().fetchQuery(leaderboardQuery({ project: 'p', model: 'm' })),
    ).rejects.toThrow();
  });

  it('save a threshold with a POST of the body', async () => {
    const fetchMock = vi.fn(async (_u: string, _i?: RequestInit) =>
      json(201, { name: 'churn', version: 3 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await saveThresholdMutation({ project: 'mindsdb', model: 'churn' })
      .mutationFn({ threshold: 0.37 })
      .catch(() => undefined);
    const [u, init] = fetchMock.mock.calls[0];
    expect(u).toBe('/api/projects/mindsdb/models/churn/evaluation/threshold');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ threshold: 0.37 });
  });
});

it('builds the card address with the groups and threshold looked at', () => {
  expect(
    cardUrl(
      { project: 'mindsdb', model: 'churn' },
      { groups: ['gender', 'geography'], threshold: 0.37 },
    ),
  ).toBe(
    '/api/projects/mindsdb/models/churn/card?download=1&groups=gender%2Cgeography&threshold=0.37',
  );
});
