import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchDescribe } from './describe';

function jsonResponse(status: number, body: unknown) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('fetchDescribe', () => {
  it('asks the REST endpoint with ?attribute= and parses the rows', async () => {
    const fetchMock = vi.fn(async () =>
      jsonResponse(200, [{ column: 'sqft', type: 'integer', encoder: 'n', role: 'input' }]),
    );
    vi.stubGlobal('fetch', fetchMock);
    const rows = await fetchDescribe('mindsdb', 'm', 'features');
    expect(rows).toEqual([{ column: 'sqft', type: 'integer', encoder: 'n', role: 'input' }]);
    expect((fetchMock.mock.calls[0] as unknown[])[0]).toBe(
      '/api/projects/mindsdb/models/m/describe?attribute=features',
    );
  });

  it('falls back to SQL DESCRIBE when the server has no describe route (404/405)', async () => {
    const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
      if (url.includes('/describe')) return new Response('Not Found', { status: 405 });
      expect(JSON.parse(String(init?.body)).query).toBe('DESCRIBE mindsdb.m');
      return jsonResponse(200, {
        type: 'table',
        column_names: ['accuracies', 'column_importances', 'inputs', 'outputs', 'model'],
        data: [['{"r2_score": 0.9}', '{"sqft": 1}', '["sqft"]', '["y"]', 'A --> B']],
        context: { db: 'mindsdb' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    const [row] = await fetchDescribe('mindsdb', 'm', '');
    expect(row).toEqual({
      accuracies: { r2_score: 0.9 },
      column_importances: { sqft: 1 },
      inputs: ['sqft'],
      outputs: ['y'],
      model: 'A --> B',
    });
  });

  it('reports the server message for other failures (a model still training)', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        jsonResponse(409, { error_code: 6, error_message: "Model 'm' is training (phase 2 of 5)" }),
      ),
    );
    await expect(fetchDescribe('mindsdb', 'm', 'info')).rejects.toThrow(/is training/);
  });
});
