import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { modelVersionsQueryOptions, type ModelVersion } from '../../api';
import { DriftTab } from './DriftTab';
import { report } from './report-fixture';
import { json, navSpies } from '../../../../test/fixtures';

afterEach(() => vi.unstubAllGlobals());

const nav = navSpies();

const version: ModelVersion = {
  name: 'rentals',
  project: 'mindsdb',
  engine: 'lightwood',
  version: 1,
  active: true,
  status: 'complete',
  accuracy: 0.9,
  predict: 'rental_price',
  error: null,
  selectDataQuery: 'SELECT * FROM demo_data.home_rentals',
  trainingOptions: null,
  phase: { current: null, total: null, name: null },
  tag: null,
  createdAt: null,
  trainingTime: null,
};

function renderTab(latest: unknown, openSql = vi.fn()) {
  const posts: unknown[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url === '/api/sql/query') {
      // The versions list is given below; only the similar-tables lookup is answered.
      if (!String(init?.body).includes('information_schema.tables')) return json(500, {});
      return json(200, {
        type: 'table',
        column_names: ['table_catalog', 'table_schema', 'table_name'],
        data: [['example_db', 'demo_data', 'home_rentals_this_month']],
        context: { db: 'mindsdb' },
      });
    }
    if (init?.method === 'POST') {
      posts.push(JSON.parse(String(init.body)));
      return json(200, report);
    }
    return latest === null ? json(404, { detail: 'none yet' }) : json(200, latest);
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(modelVersionsQueryOptions('mindsdb', 'rentals').queryKey, [version]);
  render(
    <QueryClientProvider client={client}>
      <DriftTab
        project="mindsdb"
        model="rentals"
        activeVersion={1}
        theme="light"
        nav={{ ...nav, openSql }}
      />
    </QueryClientProvider>,
  );
  return { posts, openSql };
}

describe('DriftTab', () => {
  it('says the verdict in words and writes RETRAIN on the report’s query into the editor', async () => {
    const { openSql } = renderTab(report);
    expect(await screen.findByRole('heading', { name: /^Retrain:/ })).toBeInTheDocument();
    expect(screen.getByText(report.summary.sentence)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retrain on this query' }));
    expect(openSql).toHaveBeenCalledWith(
      'RETRAIN mindsdb.rentals\nFROM example_db (\n  SELECT * FROM demo_data.home_rentals_this_month\n);',
    );
  });

  it('sorts the inputs by PSI x importance, and by any column header clicked', async () => {
    renderTab(report);
    const table = await screen.findByRole('table', { name: 'Inputs' });
    const order = () =>
      within(table)
        .getAllByRole('rowheader')
        .map((c) => c.textContent);
    expect(order()).toEqual(['sqft', 'location', 'rooms']);
    fireEvent.click(within(table).getByRole('button', { name: 'importance' }));
    expect(order()).toEqual(['sqft', 'rooms', 'location']);
    expect(within(table).getByRole('columnheader', { name: /importance ▼/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    fireEvent.click(within(table).getByRole('button', { name: /^importance/ }));
    expect(order()).toEqual(['location', 'rooms', 'sqft']);
  });

  it('shows the picked input’s histograms with a table of counts', async () => {
    renderTab(report);
    expect(
      await screen.findByText('sqft: share of rows per bin, training vs today'),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'location' }));
    const fig = screen.getByRole('figure', {
      name: 'location: share of rows per bin, training vs today',
    });
    const cells = within(fig)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(cells).toContain('new00.0%24012.0%');
  });

  it('offers a table like the training data and computes drift on it', async () => {
    const { posts } = renderTab(null);
    expect(await screen.findByText(/No drift report for v1 yet/)).toBeInTheDocument();
    fireEvent.click(await screen.findByRole('button', { name: 'Use home_rentals_this_month' }));
    expect(screen.getByRole('textbox', { name: /Query/ })).toHaveValue(
      'SELECT * FROM demo_data.home_rentals_this_month',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Compute drift' }));
    expect(await screen.findByRole('heading', { name: /^Retrain:/ })).toBeInTheDocument();
    expect(posts).toEqual([
      { query: 'SELECT * FROM demo_data.home_rentals_this_month', db: 'example_db' },
    ]);
  });
});
