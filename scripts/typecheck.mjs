#!/usr/bin/env node
// `npm run typecheck`: the five tsconfigs (node side, browser, contract, e2e, bench) with
// TypeScript 7, the native compiler (~4x less CPU than 5.9 here: 27 vs 107 CPU-s for the five).
// TypeScript 5.9 stays the `typescript` package, for the tools built on its JavaScript API
// (typescript-eslint's typed rules, scripts/lint/no-cycle.mjs).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

// The package is installed under an alias (`typescript7`, see package.json): its bin is `tsc`,
// the same name as 5.9's, so it is run by path, not through node_modules/.bin.
const manifest = createRequire(import.meta.url).resolve('typescript7/package.json');
const tsc = join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.tsc);
const projects = ['tsconfig.json', 'src', 'contract', 'e2e', 'bench'];
// Arguments after `--` go to every tsc: `npm test` asks for --singleThreaded (scripts/test.sh).
const extra = process.argv.slice(2);
let failed = 0;
for (const project of projects) {
  const t0 = Date.now();
  const { status } = spawnSync(process.execPath, [tsc, '-p', project, ...extra], {
    stdio: 'inherit',
  });
  console.log(`${status === 0 ? 'ok    ' : 'FAILED'} ${project} (${Date.now() - t0} ms)`);
  if (status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
