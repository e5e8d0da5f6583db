import { act, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { useFocusOnViewChange } from './use-focus-keeper';

/** A top bar button that stays, and a main area whose content follows `view`. */
function Shell({ view, heading = true }: { view: string; heading?: boolean }) {
  const main = useRef<HTMLElement>(null);
  useFocusOnViewChange(main, view);
  return (
    <>
      <button>Models</button>
      <main ref={main}>
        <div key={view}>
          {heading && <h1>{view} heading</h1>}
          <button>open from {view}</button>
        </div>
      </main>
    </>
  );
}

describe('focus on a view change', () => {
  it('moves focus lost with the control that opened the view to the new heading', () => {
    const { rerender } = render(<Shell view="list" />);
    screen.getByRole('button', { name: 'open from list' }).focus();
    rerender(<Shell view="page" />);
    const heading = screen.getByRole('heading', { name: 'page heading' });
    expect(document.activeElement).toBe(heading);
    // Reachable by script, not a Tab stop of its own.
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });

  it('waits for a view that draws its heading later (a lazy view)', async () => {
    const { rerender } = render(<Shell view="list" />);
    screen.getByRole('button', { name: 'open from list' }).focus();
    rerender(<Shell view="page" heading={false} />);
    expect(document.activeElement).toBe(document.body);
    // The observer runs on the DOM change, in a microtask.
    await act(async () => {
      rerender(<Shell view="page" />);
      await Promise.resolve();
    });
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'page heading' }));
  });

  it('leaves focus that is still on the page, and the first view of a load, alone', () => {
    const { rerender } = render(<Shell view="list" />);
    expect(document.activeElement).toBe(document.body);
    const models = screen.getByRole('button', { name: 'Models' });
    models.focus();
    rerender(<Shell view="page" />);
    expect(document.activeElement).toBe(models);
  });
});
