/** React binding for `createStore` stores. */
import { useSyncExternalStore } from 'react';
import type { Store } from './create-store';

export function useStore<S>(store: Store<S>): S {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}
