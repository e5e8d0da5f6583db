import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionIndicator } from './ConnectionIndicator';

function renderWithClient() {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <ConnectionIndicator />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

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
});
