import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { nextTabIndex, TabList } from './TabList';

describe('nextTabIndex', () => {
  it('moves with the arrows (wrapping), Home and End, and ignores other keys', () => {
    expect(nextTabIndex('ArrowRight', 0, 3)).toBe(1);
    expect(nextTabIndex('ArrowRight', 2, 3)).toBe(0);
    expect(nextTabIndex('ArrowLeft', 0, 3)).toBe(2);
    expect(nextTabIndex('Home', 2, 3)).toBe(0);
    expect(nextTabIndex('End', 0, 3)).toBe(2);
    expect(nextTabIndex('Enter', 0, 3)).toBeNull();
  });
});

function Harness() {
  const [tab, setTab] = useState<'a' | 'b' | 'c'>('a');
  return (
    <TabList
      label="Letters"
      idPrefix="t"
      tabs={[
        { id: 'a', label: 'A' },
        { id: 'b', label: 'B' },
        { id: 'c', label: 'C' },
      ]}
      selected={tab}
      onSelect={setTab}
    />
  );
}

describe('TabList', () => {
  it('has one Tab stop, and arrow keys move the focus and the selection', () => {
    render(<Harness />);
    const [a, b, c] = screen.getAllByRole('tab');
    expect(screen.getByRole('tablist', { name: 'Letters' })).toBeInTheDocument();
    expect([a.tabIndex, b.tabIndex, c.tabIndex]).toEqual([0, -1, -1]);
    expect(a).toHaveAttribute('aria-controls', 't-panel-a');
    expect(b).not.toHaveAttribute('aria-controls');
    a.focus();
    fireEvent.keyDown(a, { key: 'ArrowLeft' });
    expect(c).toHaveFocus();
    expect(c).toHaveAttribute('aria-selected', 'true');
    expect([a.tabIndex, b.tabIndex, c.tabIndex]).toEqual([-1, -1, 0]);
    fireEvent.keyDown(c, { key: 'Home' });
    expect(a).toHaveFocus();
    expect(a).toHaveAttribute('aria-selected', 'true');
  });
});
