import { describe, expect, it } from 'vitest';
import { addTab, initialTabs } from '../features/tabs/tab-store';
import { shortcutFor } from './use-app-shortcuts';

const key = (k: Partial<Parameters<typeof shortcutFor>[0]>) => ({
  key: '',
  code: '',
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  target: null,
  ...k,
});

describe('shortcutFor', () => {
  const one = initialTabs();
  const two = addTab(one); // the second tab is active

  it('opens the shortcut sheet with ?, but not while typing in a field', () => {
    expect(shortcutFor(key({ key: '?' }), one)).toEqual({ kind: 'help' });
    const input = { tagName: 'INPUT', isContentEditable: false } as unknown as EventTarget;
    expect(shortcutFor(key({ key: '?', target: input }), one)).toBeNull();
  });

  it('opens, closes and moves between query tabs with Alt, and names the tab it closes', () => {
    const added = shortcutFor(key({ altKey: true, code: 'KeyN' }), one);
    expect(added?.kind === 'tabs' && added.next.tabs.length).toBe(2);
    const closed = shortcutFor(key({ altKey: true, code: 'KeyW' }), two);
    expect(closed).toMatchObject({ kind: 'tabs', closed: two.activeId });
    expect(closed?.kind === 'tabs' && closed.next.tabs.map((t) => t.id)).toEqual([one.activeId]);
    const left = shortcutFor(key({ altKey: true, key: 'ArrowLeft' }), two);
    expect(left?.kind === 'tabs' && left.next.activeId).toBe(one.activeId);
  });

  it('does nothing past the last tab, or with Ctrl or Cmd held (the editor’s own keys)', () => {
    expect(shortcutFor(key({ altKey: true, key: 'ArrowRight' }), two)).toBeNull();
    expect(shortcutFor(key({ altKey: true, ctrlKey: true, code: 'KeyN' }), one)).toBeNull();
    expect(shortcutFor(key({ altKey: true, metaKey: true, code: 'KeyW' }), two)).toBeNull();
  });
});
