// Types of vitest-order.mjs (plain JavaScript, as vitest.config.ts imports it).
import { BaseSequencer } from 'vitest/node';

export declare function slowFirst<T>(
  files: readonly T[],
  path: (file: T) => string,
  slow: readonly string[],
): T[];
export declare class SlowFirstSequencer extends BaseSequencer {}
