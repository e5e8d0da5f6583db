// `node server/launch.mjs <entry.ts>`: runs a TypeScript entry of this repository in this process,
// loaded as one bundle of its modules (./bundle.mjs). `npm run instance`, `npm run dev`, the e2e
// servers and the process tests start the supervisor (server/main.ts) so, and the supervisor runs
// the instance process (supervisor/instance-process.ts) so: under tsx, the supervisor's start took
// 0.55-0.72 CPU-s and the instance process's imports ~0.4 more than bundled. Where no bundle can be
// built (or TS_BUNDLES=0), tsx is registered here and the sources load through it.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const file = process.argv[2];
if (!file) throw new Error('usage: node server/launch.mjs <entry.ts>');
const entry = pathToFileURL(path.resolve(file)).href;
const bundled = process.env.TS_BUNDLES === '0' ? null : await import('./bundle.mjs');
const url = await bundled?.bundledEntry(entry);
if (url) {
  // Stack traces name the sources' files and lines, as under tsx.
  process.setSourceMapsEnabled(true);
  await import(url);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(entry);
}
