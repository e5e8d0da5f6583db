/**
 * What the SPA's component and fetcher tests build alike: a JSON `Response` as the instance sends
 * one, and the models pages' navigation callbacks as spies.
 */
import { vi } from 'vitest';
import type { ModelsNav } from '../features/models/nav';

/** A JSON answer with its status, as `fetch` resolves it. */
export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The navigation a models page is given, every callback a spy. */
export function navSpies(): ModelsNav {
  return {
    openModel: vi.fn(),
    openCreate: vi.fn(),
    openHome: vi.fn(),
    openCompare: vi.fn(),
    openSql: vi.fn(),
    replaceParams: vi.fn(),
  };
}
