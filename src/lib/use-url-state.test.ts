import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useUrlMirror, useUrlState, type UrlCodec } from './use-url-state';

const numberCodec: UrlCodec<number> = {
  decode: (t) => (t && /^\d+$/.test(t) ? Number(t) : 10),
  encode: (n) => String(n),
};

/** A shell: the URL's keys, and a writer that changes them in place as url-sync does. */
function fakeUrl(initial: Record<string, string | undefined>) {
  const url = { params: { ...initial } };
  const write = vi.fn((patch: Record<string, string | undefined>) => {
    url.params = { ...url.params, ...patch };
  });
  return { url, write };
}

describe('useUrlState', () => {
  it('starts from the URL, writes changes back after a quiet time, and only real changes', () => {
    vi.useFakeTimers();
    const { url, write } = fakeUrl({ rows: '25' });
    const { result, rerender } = renderHook(() =>
      useUrlState({ params: url.params, key: 'rows', write }, numberCodec),
    );
    expect(result.current[0]).toBe(25);
    vi.advanceTimersByTime(500);
    expect(write).not.toHaveBeenCalled();

    act(() => result.current[1](50));
    act(() => result.current[1](51));
    vi.advanceTimersByTime(149);
    expect(write).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(write).toHaveBeenCalledTimes(1);
    expect(write).toHaveBeenLastCalledWith({ rows: '51' });
    // The shell re-renders with the key it wrote: nothing more to write, nothing to adopt.
    rerender();
    vi.advanceTimersByTime(500);
    expect(write).toHaveBeenCalledTimes(1);
    expect(result.current[0]).toBe(51);
    vi.useRealTimers();
  });

  it('adopts a value that arrives from outside (back/forward, another link)', () => {
    const { url, write } = fakeUrl({ rows: '25' });
    const { result, rerender } = renderHook(() =>
      useUrlState({ params: url.params, key: 'rows', write }, numberCodec),
    );
    url.params = { rows: '10' };
    rerender();
    expect(result.current[0]).toBe(10);
  });

  it('writes the state again when a navigation dropped its key', () => {
    vi.useFakeTimers();
    const { url, write } = fakeUrl({ rows: '25' });
    const { result, rerender } = renderHook(() =>
      useUrlState({ params: url.params, key: 'rows', write }, numberCodec),
    );
    url.params = {};
    rerender();
    expect(result.current[0]).toBe(25);
    vi.advanceTimersByTime(150);
    expect(write).toHaveBeenLastCalledWith({ rows: '25' });
    vi.useRealTimers();
  });
});

describe('useUrlMirror', () => {
  it('writes a value held elsewhere, and removes the key for an empty one', () => {
    vi.useFakeTimers();
    const { url, write } = fakeUrl({});
    const initialProps: { v: number | undefined } = { v: 3 };
    const { rerender } = renderHook(
      ({ v }: { v: number | undefined }) =>
        useUrlMirror(
          { params: url.params, key: 'n', write, debounceMs: 0 },
          { decode: () => undefined, encode: (x: number | undefined) => x?.toString() },
          v,
        ),
      { initialProps },
    );
    vi.advanceTimersByTime(0);
    expect(write).toHaveBeenLastCalledWith({ n: '3' });
    rerender({ v: undefined });
    vi.advanceTimersByTime(0);
    expect(write).toHaveBeenLastCalledWith({ n: undefined });
    vi.useRealTimers();
  });
});
