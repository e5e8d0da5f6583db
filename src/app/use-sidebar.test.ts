import { describe, expect, it } from 'vitest';
import { sidebarMode } from './use-sidebar';

describe('sidebarMode', () => {
  it('docks on wide screens unless hidden, and is a drawer (closed by default) when narrow', () => {
    expect(sidebarMode(false, true, false)).toBe('docked');
    expect(sidebarMode(false, false, true)).toBe('hidden');
    expect(sidebarMode(true, true, false)).toBe('hidden');
    expect(sidebarMode(true, true, true)).toBe('drawer');
  });
});
