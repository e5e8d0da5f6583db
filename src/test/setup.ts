import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// Files share one jsdom per worker (vitest.config.ts: isolate false), so each file leaves the
// page as a fresh one would be: no stored state, no URL, no attributes on <html>. (A file that
// asks for the node environment has no page.)
afterAll(() => {
  if (typeof window === 'undefined') return;
  localStorage.clear();
  sessionStorage.clear();
  window.history.replaceState(null, '', '/');
  for (const { name } of [...document.documentElement.attributes])
    if (name !== 'lang') document.documentElement.removeAttribute(name);
  document.head.innerHTML = '';
});

// findBy*/waitFor resolve as soon as their condition holds; the timeout only decides how long a
// failing one waits. Testing Library's 1 s default failed a first render on a loaded machine
// (load 25 on 2 cores), so the bound is the test's own timeout, not the clock of a quiet machine.
configure({ asyncUtilTimeout: 20_000 });
