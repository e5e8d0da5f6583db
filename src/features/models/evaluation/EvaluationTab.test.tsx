import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EvaluationTab } from './EvaluationTab';
import { navSpies } from '../../../test/fixtures';

const yes = { applies: true, reason: null };

const summary = {
  available: true,
  reason: null,
  version: 2,
  task: 'binary',
  target: 'exited',
  classes: [0, 1],
  positive: 1,
  level: null,
  held_out: { rows: 8, total: 8, validation: 'split', sample: 'all' },
  columns: [
    { name: 'age', in_model: true, kind: 'number' },
    { name: 'gender', in_model: true, kind: 'category' },
  ],
  views: {
    leaderboard: yes,
    threshold: yes,
    calibration: yes,
    intervals: { applies: false, reason: 'A classifier predicts classes, not intervals.' },
    slices: yes,
    groups: yes,
  },
  saved: null,
};

const cand = (name: string, value: number, selected: boolean) => ({
  name,
  kind: name,
  score: { name: 'balanced_accuracy_score', value },
  other: null,
  fit_seconds: 0.5,
  predict_rows_per_second: 5000,
  size_bytes: 4096,
  selected,
  using: name,
});

const leaderboard = {
  version: 2,
  candidates: [cand('gbm', 0.8, true), cand('linear', 0.9, false)],
  warnings: [
    { kind: 'dominant_input', column: 'balance', message: "'balance' explains 99% of it." },
  ],
};

// Positives at p = 0.9, 0.8, 0.7, 0.3; negatives at 0.6, 0.2, 0.1, 0.1 (ten steps).
const threshold = {
  positive: 1,
  negative: 0,
  rows: 8,
  table: {
    steps: 10,
    positives: [0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0],
    negatives: [0, 2, 1, 0, 0, 0, 1, 0, 0, 0, 0],
  },
  roc: { fpr: [0, 0, 0.25, 1], tpr: [0, 0.75, 1, 1], auc: 0.9375 },
  pr: { precision: [1, 1, 0.8, 0.5], recall: [0, 0.75, 1, 1], average_precision: 0.95 },
  gains: [{ share: 1, gain: 1, lift: 1 }],
  per_class: [],
  decision: { rule: 'balanced', threshold: 0.5 },
  savable: yes,
  saved: null,
};

const slices = {
  metric: 'error_rate',
  overall: 0.25,
  rows: 8,
  tree: { where: '', rows: 8, error: 0.25, share: 1 },
  slices: [
    {
      where: 'age >= 50',
      rows: 3,
      error: 0.67,
      share: 1,
      sql: 'SELECT * FROM files.churn WHERE age >= 50',
    },
  ],
  asked: null,
};

const routes: Record<string, unknown> = {
  '/evaluation': summary,
  '/evaluation/leaderboard': leaderboard,
  '/evaluation/threshold': threshold,
  '/evaluation/slices': slices,
};

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://x').pathname.replace(/^.*\/models\/[^/]+/, '');
      const body = routes[path];
      return body === undefined
        ? new Response('{"error": "no"}', { status: 404 })
        : new Response(JSON.stringify(body), { status: 200 });
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

const nav = navSpies();

function renderTab(
  onOpenSql = vi.fn(),
  params: Record<string, string | undefined> = {},
  replaceParams = vi.fn(),
) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <EvaluationTab
        project="mindsdb"
        model="churn"
        activeVersion={2}
        theme="light"
        nav={{ ...nav, openSql: onOpenSql, replaceParams }}
        params={params}
      />
    </QueryClientProvider>,
  );
  return onOpenSql;
}

describe('EvaluationTab', () => {
  it('ranks the candidates and calls the better score of a leaky model suspect', async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: 'Candidates, best score first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'linear',
      'gbm',
    ]);
    expect(rows[0]).toHaveTextContent('best score, suspect');
    expect(screen.getByRole('note', { name: 'Scores to read with care' })).toHaveTextContent(
      "its score leans on 'balance', a likely leak",
    );
    expect(screen.getByRole('button', { name: 'Make linear serve' })).toBeEnabled();
  });

  it('redraws the confusion matrix as the threshold moves', async () => {
    renderTab();
    fireEvent.click(await screen.findByRole('tab', { name: 'Threshold & cost' }));
    const matrix = await screen.findByRole('table', { name: /at threshold 0\.500/ });
    expect(
      within(matrix)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['3', '1', '1', '3']);
    fireEvent.change(screen.getByRole('slider'), { target: { value: '0.65' } });
    const moved = await screen.findByRole('table', { name: /at threshold 0\.650/ });
    expect(
      within(moved)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['3', '1', '0', '4']);
  });

  it('says why a section does not apply instead of drawing nothing', async () => {
    renderTab();
    fireEvent.click(await screen.findByRole('tab', { name: 'Interval audit' }));
    expect(screen.getByRole('tab', { name: 'Interval audit' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByRole('status')).toHaveTextContent(
      'A classifier predicts classes, not intervals.',
    );
  });

  it('opens an error slice in the SQL editor', async () => {
    const onOpenSql = renderTab();
    fireEvent.click(await screen.findByRole('tab', { name: 'Where it is wrong' }));
    fireEvent.click(
      await screen.findByRole('button', { name: 'Open age >= 50 in the SQL editor' }),
    );
    expect(onOpenSql).toHaveBeenCalledWith('SELECT * FROM files.churn WHERE age >= 50');
  });

  it('moves between sections with the arrow keys', async () => {
    renderTab();
    const first = await screen.findByRole('tab', { name: 'Leaderboard' });
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Threshold & cost' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });

  it('opens from a shared link on the slice WHERE it names, judged again', async () => {
    const where = "age >= 50 AND gender = 'Female'";
    renderTab(vi.fn(), { eval: JSON.stringify({ section: 'slices', where }) });
    expect(await screen.findByRole('tab', { name: 'Where it is wrong' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(await screen.findByRole('textbox', { name: /Judge your own slice/ })).toHaveValue(where);
    await vi.waitFor(() =>
      expect(
        vi
          .mocked(fetch)
          .mock.calls.map(([u]) => new URL(String(u), 'http://x').searchParams.get('where')),
      ).toContain(where),
    );
  });

  it('writes the WHERE typed and the threshold moved into the link', async () => {
    const replaceParams = vi.fn();
    renderTab(vi.fn(), {}, replaceParams);
    fireEvent.click(await screen.findByRole('tab', { name: 'Where it is wrong' }));
    const box = await screen.findByRole('textbox', { name: /Judge your own slice/ });
    fireEvent.change(box, { target: { value: 'age < 30' } });
    fireEvent.click(screen.getByRole('button', { name: 'Judge this slice' }));
    await vi.waitFor(() => {
      const last = replaceParams.mock.calls.at(-1)?.[0] as { eval?: string } | undefined;
      expect(JSON.parse(last?.eval ?? '{}')).toEqual({ section: 'slices', where: 'age < 30' });
    });
    fireEvent.click(screen.getByRole('tab', { name: 'Threshold & cost' }));
    fireEvent.change(await screen.findByRole('slider'), { target: { value: '0.65' } });
    await vi.waitFor(() => {
      const last = replaceParams.mock.calls.at(-1)?.[0] as { eval?: string } | undefined;
      expect(JSON.parse(last?.eval ?? '{}')).toEqual({
        section: 'threshold',
        where: 'age < 30',
        threshold: 0.65,
      });
    });
  });

  it('ignores a crafted eval= key instead of failing', async () => {
    renderTab(vi.fn(), { eval: '{"section":"<img src=x>","threshold":"0.5"}' });
    expect(await screen.findByRole('tab', { name: 'Leaderboard' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
  });
});
