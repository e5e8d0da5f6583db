import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EffectsTab } from './EffectsTab';
import { effects } from './effects-fixture';
import { json, navSpies } from '../../../../test/fixtures';

afterEach(() => vi.unstubAllGlobals());

const nav = navSpies();

function renderTab(body: unknown, status = 200) {
  vi.stubGlobal('fetch', async () => json(status, body));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <EffectsTab project="mindsdb" model="rentals" activeVersion={1} theme="light" nav={nav} />
    </QueryClientProvider>,
  );
}

describe('EffectsTab', () => {
  it('draws the most important input first and switches to another on click', async () => {
    renderTab(effects);
    expect(
      await screen.findByText(/^Across its range, sqft moves the average rental_price/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /sqft/ })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByRole('button', { name: /location/ }));
    expect(
      screen.getByText(/^Across its categories, location moves the average rental_price/),
    ).toBeInTheDocument();
    const fig = screen.getByRole('figure', {
      name: 'Partial dependence of rental_price on location, with 3 individual rows',
    });
    expect(
      within(fig)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual(['great3,0002', 'good2,8001', 'poor2,2000']);
  });

  it('says why a model has no curves', async () => {
    renderTab({
      ...effects,
      task: 'timeseries',
      curves: [],
      skipped: [{ column: '*', reason: 'forecasters have no partial dependence' }],
    });
    expect(
      await screen.findByText('No curves: * (forecasters have no partial dependence)'),
    ).toBeInTheDocument();
  });

  it('shows the instance’s refusal', async () => {
    renderTab({ detail: 'The model is still training' }, 409);
    expect(await screen.findByRole('alert')).toHaveTextContent('The model is still training');
  });

  it('draws a classifier on the class picked, asking the server for that class', async () => {
    const asked: (string | null)[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      const cls = new URL(url, 'http://x').searchParams.get('class');
      asked.push(cls);
      const c = cls ?? 'high';
      return json(200, {
        ...effects,
        task: 'multiclass',
        output: `P(band = ${c})`,
        class: c,
        classes: ['high', 'low', 'mid'],
      });
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <EffectsTab project="mindsdb" model="bands" activeVersion={1} theme="light" nav={nav} />
      </QueryClientProvider>,
    );
    const picker = await screen.findByRole('combobox', { name: /Probability of class/ });
    expect(picker).toHaveValue('high');
    expect(screen.getByText(/on P\(high\)/)).toBeInTheDocument();
    fireEvent.change(picker, { target: { value: 'mid' } });
    expect(await screen.findByText(/on P\(mid\)/)).toBeInTheDocument();
    expect(picker).toHaveValue('mid');
    expect(asked).toEqual([null, 'mid']);
  });
});
