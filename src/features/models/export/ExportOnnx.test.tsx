import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExportOnnx } from './ExportOnnx';

const REFUSAL =
  "Model 'mindsdb.notes' (version 1) cannot be exported to ONNX: the input 'note' is free text, encoded by a tokeniser ONNX has no standard operators for; retrain without it to export";

/** The instance as the route answers: HEAD 200 for a tabular model, 422 with its message else. */
const calls: { method: string; url: string }[] = [];
beforeEach(() => {
  calls.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url });
      if (url.includes('/models/rentals/') || url.includes('/models/rentals.2/'))
        return new Response(method === 'HEAD' ? null : new Uint8Array([8, 10]), { status: 200 });
      if (url.includes('/models/notes/')) {
        const body = {
          title: 'Unprocessable Entity',
          detail: REFUSAL,
          timestamp: '2026-11-26 22:00:00.000000',
          error_code: 0,
          error_message: REFUSAL,
        };
        return new Response(method === 'HEAD' ? null : JSON.stringify(body), {
          status: 422,
          headers: { 'content-type': 'application/problem+json' },
        });
      }
      return new Response(method === 'HEAD' ? null : '{"error_message":"no"}', { status: 404 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderExport(model: string, version?: number) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <ExportOnnx project="mindsdb" model={model} version={version} />
    </QueryClientProvider>,
  );
}

describe('Export ONNX', () => {
  it('is a download of the version when the instance can export it, asked without its bytes', async () => {
    renderExport('rentals', 2);
    const link = await screen.findByRole('link', { name: 'Export ONNX' });
    expect(link).toHaveAttribute('href', '/api/projects/mindsdb/models/rentals.2/onnx');
    expect(link).toHaveAttribute('download');
    expect(calls).toEqual([{ method: 'HEAD', url: '/api/projects/mindsdb/models/rentals.2/onnx' }]);
  });

  it("shows the instance's reason instead of a button for a model ONNX cannot express", async () => {
    renderExport('notes');
    expect(await screen.findByRole('note', { name: 'ONNX export' })).toHaveTextContent(
      `No ONNX export: ${REFUSAL}`,
    );
    expect(screen.queryByRole('link', { name: 'Export ONNX' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Export ONNX' })).toBeNull();
    expect(calls.map((c) => c.method)).toEqual(['HEAD', 'GET']);
  });

  it('says what went wrong when the instance cannot answer', async () => {
    renderExport('missing');
    expect(await screen.findByRole('note', { name: 'ONNX export' })).toHaveTextContent(
      'ONNX export unavailable: The instance answered HTTP 404',
    );
  });

  it('is a busy, disabled button while the instance is asked', () => {
    renderExport('rentals');
    expect(screen.getByRole('button', { name: 'Export ONNX' })).toBeDisabled();
  });
});
