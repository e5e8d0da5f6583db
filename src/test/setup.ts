import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Vitest runs without globals, so Testing Library cannot register its own cleanup.
afterEach(() => cleanup());

// findBy*/waitFor wait on a condition; their 1 s default was hit on a busy machine (load 27 on
// 2 cores) by renders that take 50 ms on an idle one. The test's own timeout still bounds them.
configure({ asyncUtilTimeout: 15_000 });
