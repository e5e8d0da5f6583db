/**
 * The ids (`context.query_id`) of the user's queries in flight, so the running-query view can find
 * their place in the instance's line (`engine.queue` of GET /api/status).
 */
import { useSyncExternalStore } from 'react';

let ids: readonly string[] = [];
const listeners = new Set<() => void>();

function set(next: readonly string[]) {
  ids = next;
  for (const l of listeners) l();
}

/** A fresh id for one request, registered until `done` is called. */
export function trackQuery(): { id: string; done: () => void } {
  const id = `q-${crypto.randomUUID()}`;
  set([...ids, id]);
  return { id, done: () => set(ids.filter((x) => x !== id)) };
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The ids of the user's queries in flight (re-renders when they change). */
export function useTrackedQueries(): readonly string[] {
  return useSyncExternalStore(subscribe, () => ids);
}
