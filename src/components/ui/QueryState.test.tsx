import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QueryState } from './QueryState';

function Probe({ fn }: { fn(): Promise<number[]> }) {
  const q = useQuery({ queryKey: ['probe', fn], queryFn: fn, retry: false });
  return (
    <QueryState query={q} loading="Loading the numbers…" error="Could not load the numbers">
      {(xs) => <output>{xs.join(' + ')}</output>}
    </QueryState>
  );
}

const renderProbe = (fn: () => Promise<number[]>) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Probe fn={fn} />
    </QueryClientProvider>,
  );

describe('QueryState', () => {
  it('says it is loading until the answer comes, then draws the data', async () => {
    let answer!: (xs: number[]) => void;
    renderProbe(() => new Promise((r) => (answer = r)));
    expect(screen.getByText('Loading the numbers…')).toBeTruthy();
    answer([1, 2]);
    expect((await screen.findByRole('status')).textContent).toBe('1 + 2');
    expect(screen.queryByText('Loading the numbers…')).toBeNull();
  });

  it('names what failed with the error message, as an alert, and draws no data', async () => {
    renderProbe(() => Promise.reject(new Error('instance unreachable')));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not load the numbers: instance unreachable');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
