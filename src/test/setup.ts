import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// findBy*/waitFor resolve as soon as their condition holds; the timeout only decides how long a
// failing one waits. Testing Library's 1 s default failed a first render on a loaded machine
// (load 25 on 2 cores), so the bound is the test's own timeout, not the clock of a quiet machine.
configure({ asyncUtilTimeout: 20_000 });
