import { afterEach, describe, expect, it, vi } from 'vitest';
import { SqlQueryResponse } from '../../contract';
import { ApiError, instanceTarget, requestJson, TARGET_HEADER } from './http';
import { z } from 'zod';

afterEach(() => vi.unstubAllGlobals());

const stub = (body: string, status: number) =>
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(body, { status })),
  );

describe('requestJson', () => {
  it('returns the SQL error envelope of a 413 instead of throwing', async () => {
    const body = {
      type: 'error',
      column_names: [],
      context: { db: 'mindsdb' },
      error_code: 6,
      error_message: 'Body too large',
    };
    stub(JSON.stringify(body), 413);
    await expect(
      requestJson('/api/sql/query', SqlQueryResponse, { method: 'POST', body: {} }),
    ).resolves.toEqual(body);
  });
  it('throws a readable ApiError for a 502 from the proxy', async () => {
    stub('', 502);
    const err = await requestJson('/api/sql/query', SqlQueryResponse).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toMatch(/not reachable \(HTTP 502\)/);
  });
  it('throws on a 200 whose body does not match the contract', async () => {
    stub('{"type":"table"}', 200);
    await expect(requestJson('/api/sql/query', SqlQueryResponse)).rejects.toThrow(
      /Unexpected response/,
    );
  });
  it('names the target the proxy says it forwards to, else the page origin, never a build-time one', async () => {
    expect(instanceTarget()).toBe(location.origin);
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{}', {
            status: 200,
            headers: { [TARGET_HEADER]: 'http://127.0.0.1:5555' },
          }),
      ),
    );
    await requestJson('/api/status', z.object({}));
    expect(instanceTarget()).toBe('http://127.0.0.1:5555');
  });
});
