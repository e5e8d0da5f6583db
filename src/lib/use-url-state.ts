/**
 * State mirrored into one key of the URL, so a link (or a reload) restores a view as it was: the
 * one way the SPA's views keep their form values in the URL. A view never touches the URL itself:
 * it gets its keys (`params`) and a writer (`write`, in place, no history entry) from the shell.
 *
 * - `useUrlState`: the state lives in the key. It starts from the key's value, each change is
 *   written back, and a new value arriving from outside (back/forward, another link) replaces it.
 * - `useUrlMirror`: the state lives elsewhere (a reducer); its current value is written to the
 *   key. The view reads the key once, when it mounts (`codec.decode(params[key])`).
 *
 * Writes are debounced (typing does not rewrite the URL on every key) and skipped when the URL
 * already says the same. A key that disappears (a navigation that did not carry it, e.g. to
 * another tab of the same page) is written again: the state stays.
 */
import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

export interface UrlCodec<T> {
  /** Whatever the key holds, checked: a link is input anyone can craft. */
  decode(text: string | undefined): T;
  /** `undefined` leaves the key out (an empty value, or one too long for a link). */
  encode(value: T): string | undefined;
}

export interface UrlBinding {
  /** The view's URL keys, as the shell decoded them. */
  params: Readonly<Record<string, string | undefined>>;
  key: string;
  /** Writes some keys in place (`undefined` removes one). */
  write(patch: Record<string, string | undefined>): void;
  /** Quiet time before a change is written (ms); 0 writes on the next tick. */
  debounceMs?: number;
}

const DEFAULT_URL_DEBOUNCE_MS = 150;

export function useUrlMirror<T>(binding: UrlBinding, codec: UrlCodec<T>, value: T): void {
  const { params, key, write, debounceMs = DEFAULT_URL_DEBOUNCE_MS } = binding;
  const encoded = codec.encode(value);
  const inUrl = params[key];
  useEffect(() => {
    if (encoded === inUrl) return;
    const t = setTimeout(() => write({ [key]: encoded }), debounceMs);
    return () => clearTimeout(t);
  }, [encoded, inUrl, key, write, debounceMs]);
}

export function useUrlState<T>(
  binding: UrlBinding,
  codec: UrlCodec<T>,
): [T, Dispatch<SetStateAction<T>>] {
  const inUrl = binding.params[binding.key];
  const [state, setState] = useState<T>(() => codec.decode(inUrl));
  // The shell re-renders with new keys only on navigation (in-place writes do not notify), so a
  // key that changed since the last render came from outside: adopt it unless it says the same.
  const [seen, setSeen] = useState(inUrl);
  if (inUrl !== seen) {
    setSeen(inUrl);
    if (inUrl !== undefined && inUrl !== codec.encode(state)) setState(codec.decode(inUrl));
  }
  useUrlMirror(binding, codec, state);
  return [state, setState];
}
