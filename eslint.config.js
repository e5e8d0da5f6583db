// ESLint flat config: typescript-eslint's rules for all TS, import circles (type-only ones
// included) and the dependency rule of docs/ARCHITECTURE.md as import-x zones, react-hooks and
// jsx-a11y for the SPA. The rules that read types (floating and misused promises, awaited
// non-thenables, needless assertions, exhaustive switches) run in oxlint (.oxlintrc.json), on
// TypeScript 7's checker: here they built a TypeScript 5.9 program per tsconfig and checked the
// files again, ~65 of ESLint's ~118 CPU-s; there the same rules take ~10.
import fs from 'node:fs';
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';
import noCycle from './scripts/lint/no-cycle.mjs';

const root = import.meta.dirname;
const TS = ['**/*.ts', '**/*.tsx'];
const TESTS = ['**/__tests__/**', 'server/test/**', 'src/test/**', 'e2e/**', '**/*.test.{ts,tsx}'];

// The dependency rule. A zone forbids `target` to import `from`, except the paths in `except`
// (relative to `from`). Server layers are written as allow-lists: a new folder is off limits
// until the rule says where it sits.
const RULE_SERVER =
  'The server flows http -> sql -> models | catalog | integrations -> engine; models -> automl (docs/ARCHITECTURE.md)';
const serverMayImport = (target, allowed, why) => ({
  target: `server/${target}`,
  from: 'server',
  except: [`./${target}`, ...allowed.map((p) => `./${p}`)],
  message: `${RULE_SERVER}: ${why}`,
});
// errors.ts and config.ts are the base every server layer but automl stands on.
const BASE = ['errors.ts', 'config.ts'];
const serverLayers = [
  serverMayImport(
    'engine',
    BASE,
    'engine is the lowest layer; it imports only errors.ts/config.ts.',
  ),
  serverMayImport(
    'catalog',
    ['engine', ...BASE],
    'the catalog (databases, projects) stands on the engine only.',
  ),
  serverMayImport(
    'integrations',
    ['catalog', 'engine', ...BASE],
    'integrations use the catalog and the engine, never models, sql or http.',
  ),
  serverMayImport(
    'models',
    ['automl', 'engine', ...BASE],
    'models reach the catalog and integrations only through models/ports.ts, and start the training worker by URL.',
  ),
  serverMayImport(
    'automl-worker',
    ['automl', 'engine', 'models/worker-protocol.ts', ...BASE],
    'the training worker runs automl and speaks models/worker-protocol.ts.',
  ),
  serverMayImport(
    'sql',
    ['models', 'catalog', 'integrations', 'engine', 'automl', ...BASE],
    'the SQL layer knows nothing of HTTP or of how the instance is assembled.',
  ),
  serverMayImport(
    'http',
    ['instance.ts', 'sql', 'models', 'catalog', 'integrations', 'engine', ...BASE],
    'routes call the layers below; only main.ts starts the server.',
  ),
  serverMayImport(
    'supervisor',
    ['instance.ts', 'http/app.ts', 'engine/journal.ts', 'engine/threadpool.ts', ...BASE],
    'the supervisor runs the instance process and reads its crash journal and sizes its threads; main.ts starts it.',
  ),
  serverMayImport(
    'instance.ts',
    ['sql', 'models', 'catalog', 'integrations', 'engine', ...BASE],
    'the instance assembles everything below HTTP.',
  ),
  ...BASE.map((base) =>
    serverMayImport(base, [], `${base} is the base of the server and imports none of it.`),
  ),
];

// Zones that hold for tests too.
const RULE_SPA =
  'The SPA flows app -> features -> shared (src/api, src/lib, src/components); a feature never imports another (docs/ARCHITECTURE.md)';
const features = fs
  .readdirSync(path.join(root, 'src/features'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const everywhere = [
  {
    target: 'server/automl',
    from: 'server',
    except: ['./automl'],
    message: `${RULE_SERVER}: automl imports nothing of the server outside server/automl.`,
  },
  {
    target: 'server/automl/threads',
    from: ['server/automl/gbm', 'server/automl/pipeline'],
    message:
      "automl/threads is the engine's concurrency (pool, tasks, model thread): gbm/ and pipeline/ use it, never the reverse.",
  },
  {
    target: 'server',
    from: 'src',
    message: 'The server imports nothing from src/ (the SPA); shared wire types live in contract/.',
  },
  {
    target: 'contract',
    from: ['server', 'src', 'e2e', 'bench', 'scripts'],
    message: 'contract/ is imported by the server and the SPA and imports only zod.',
  },
  {
    target: 'src',
    from: ['server', 'e2e', 'bench', 'scripts'],
    message: 'The SPA runs in the browser: it talks to the server over HTTP, through contract/.',
  },
  ...['src/lib', 'src/components', 'src/api'].map((shared) => ({
    target: shared,
    from: ['src/features', 'src/app'],
    message: `${RULE_SPA}: ${shared} is shared and imports no feature and not the app.`,
  })),
  ...features.map((feature) => ({
    target: `src/features/${feature}`,
    from: ['src/app', 'src/features'],
    except: [`./${feature}`],
    message: `${RULE_SPA}: features/${feature} may import only itself and shared code; the app wires features together.`,
  })),
];
// The models feature lives in rooms (src/features/models/<room>/: page, create, predict, ...). A
// room is used from outside only through its index.ts (stylesheets aside: class names are global
// anyway), so a room can change its insides without breaking another. The app is held to the same.
const MODELS = 'src/features/models';
const RULE_ROOMS = `${MODELS} is in rooms: import another room through its index (e.g. '../predict'), never a file inside it (src/features/models/README.md)`;
const modelRooms = fs
  .readdirSync(path.join(root, MODELS), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const roomEntries = (room) =>
  fs
    .readdirSync(path.join(root, MODELS, room))
    .filter((f) => /^index\.tsx?$/.test(f) || f.endsWith('.css'))
    .map((f) => `./${room}/${f}`);
everywhere.push(
  ...modelRooms.map((room) => ({
    target: `${MODELS}/${room}`,
    from: MODELS,
    except: [`./${room}`, ...modelRooms.filter((o) => o !== room).flatMap(roomEntries)],
    message: RULE_ROOMS,
  })),
  { target: 'src/app', from: MODELS, except: modelRooms.flatMap(roomEntries), message: RULE_ROOMS },
);
const restrictedPaths = (zones) => [
  'error',
  { basePath: root, zones: zones.map((z) => (z.except ? z : { ...z, except: [] })) },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      '.playground-data',
      'test-results',
      'playwright-report',
      'data',
      '.tmp',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    files: TS,
    plugins: { 'import-x': importX, local: { rules: { 'no-cycle': noCycle } } },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: {
      // Circles of type-only imports too (import-x/no-cycle skips them): scripts/lint/no-cycle.mjs.
      'local/no-cycle': 'error',
      'import-x/no-restricted-paths': restrictedPaths(everywhere),
    },
  },
  {
    // The layers hold for the product's code; tests and the harness assemble the whole instance.
    files: ['server/**/*.ts'],
    ignores: TESTS,
    rules: { 'import-x/no-restricted-paths': restrictedPaths([...everywhere, ...serverLayers]) },
  },
  {
    // Tests read arbitrary JSON bodies and assert on them; typing every response would add noise.
    files: TESTS,
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['src/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
  },
);
