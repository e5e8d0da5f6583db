import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { connectionHealth } from '../../api/connection-health';
import { runSql } from '../../api/sql-query';
import { ConnectionIndicator } from './ConnectionIndicator';

function renderWithClient() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <ConnectionIndicator />
    </QueryClientProvider>,
  );
}

beforeEach(() => connectionHealth.set({ seq: 0, last: null }));
afterEach(() => vi.unstubAllGlobals());

const statusBody = JSON.stringify({
  version: '0.1.0',
  auth: { http_auth_enabled: false, confirmed: true },
});

describe('ConnectionIndicator', () => {
  it('shows the version when the instance answers', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              version: '0.1.0',
              auth: { http_auth_enabled: false, confirmed: true },
            }),
            {
              status: 200,
            },
          ),
      ),
    );
    renderWithClient();
    expect(
      await screen.findByRole('status', { name: 'Connection: Connected · v0.1.0' }),
    ).toBeInTheDocument();
  });

  it('says unreachable when the instance answers 500 with HTML', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<h1>Internal error</h1>', { status: 500 })),
    );
    renderWithClient();
    const status = await screen.findByRole('status', { name: 'Connection: Instance unreachable' });
    expect(status.getAttribute('title')).toContain('HTTP 500: Internal error');
  });

  it('says unreachable when the network fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    renderWithClient();
    const status = await screen.findByRole('status', { name: 'Connection: Instance unreachable' });
    expect(status.getAttribute('title')).toContain('Cannot reach the instance');
  });

  it('turns unreachable on the first failed SQL request and back on the first answer', async () => {
    let up = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (!up) return new Response('', { status: 502 });
        if (url === '/api/status') return new Response(statusBody, { status: 200 });
        return new Response(
          JSON.stringify({ type: 'ok', column_names: [], context: { db: 'mindsdb' } }),
          { status: 200 },
        );
      }),
    );
    renderWithClient();
    await screen.findByRole('status', { name: 'Connection: Connected · v0.1.0' });

    up = false;
    await act(async () => {
      await runSql({ query: 'SELECT 1' }).catch(() => undefined);
    });
    const down = screen.getByRole('status', { name: 'Connection: Instance unreachable' });
    expect(down.getAttribute('title')).toContain('HTTP 502');

    up = true;
    await act(async () => {
      await runSql({ query: 'SELECT 1' });
    });
    expect(
      screen.getByRole('status', { name: 'Connection: Connected · v0.1.0' }),
    ).toBeInTheDocument();
  });
});
