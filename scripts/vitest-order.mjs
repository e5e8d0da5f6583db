// The order Vitest starts its files in (vitest.config.ts's `sequence.sequencer`): the suite's
// slowest files first, then the rest in Vitest's own order. Vitest's own order runs the files it
// has no timings for (every file on a clean clone: CI) largest first, by bytes, so a slow file of
// few bytes started late and could run alone at the end while the other worker had nothing left.
// Plain JavaScript, as vite.config.ts's imports are (Vite's native config loader takes no .ts
// import without its extension, and TypeScript none with it).
import { relative, sep } from 'node:path';
import { BaseSequencer } from 'vitest/node';

// The slowest files, slowest first: seconds with hooks in CI run47 (load 10-14). A file renamed
// or removed is skipped: a stale list only leaves the others in Vitest's own order.
const SLOW_FILES = [
  'server/test/__tests__/crash.test.ts', // 60.4
  'server/sql/__tests__/models.test.ts', // 27.2
  'server/sql/__tests__/forecast.test.ts', // 25.2
  'server/automl/__tests__/threads.test.ts', // 20.4
  'server/http/__tests__/security-http.test.ts', // 18.7
  'server/sql/__tests__/mindsdb-docs.test.ts', // 18.0
  'server/sql/__tests__/row-order.test.ts', // 16.4
  'server/http/__tests__/limits.test.ts', // 15.7
  'server/integrations/__tests__/postgres.test.ts', // 15.2
  'server/automl/__tests__/quality.test.ts', // 15.1
  'server/models/__tests__/trainer.test.ts', // 13.3
  'server/models/evaluation/__tests__/evaluation.test.ts', // 12.9
  'server/test/__tests__/data-dir.test.ts', // 12.9
  'server/sql/__tests__/scoring-stream.test.ts', // 12.9
  'server/http/__tests__/models-api.test.ts', // 12.0
  'server/automl/__tests__/large.test.ts', // 11.4
];

/** The files `slow` names (paths from the root) first, in its order, then the others in theirs. */
export function slowFirst(files, path, slow) {
  const rank = new Map(slow.map((p, i) => [p, i]));
  const known = files.filter((f) => rank.has(path(f)));
  known.sort((a, b) => (rank.get(path(a)) ?? 0) - (rank.get(path(b)) ?? 0));
  return [...known, ...files.filter((f) => !rank.has(path(f)))];
}

export class SlowFirstSequencer extends BaseSequencer {
  async sort(files) {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    return slowFirst(sorted, (s) => relative(root, s.moduleId).split(sep).join('/'), SLOW_FILES);
  }
}
