// The local no-cycle rule: circles of type-only imports are reported (import-x/no-cycle lets them
// pass), at every import that closes one, and modules without a circle are left alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import noCycle from './no-cycle.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'no-cycle-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const files: Record<string, string> = {
  'a.ts': "import type { B } from './b';\nexport interface A { b: B }\n",
  'b.ts': "import type { C } from './c';\nexport interface B { c: C }\n",
  'c.ts': "import { type A } from './a';\nexport type C = A[];\n",
  'leaf.ts': 'export type Leaf = number;\n',
  'user.ts':
    "import type { Leaf } from './leaf';\nexport type { A } from './a';\nexport const n: Leaf = 1;\n",
  'dyn.ts': "export const load = () => import('./dyn2');\n",
  'dyn2.ts': "export type D = typeof import('./dyn');\n",
};
for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);

function lint(name: string): string[] {
  const linter = new Linter({ cwd: dir });
  const messages = linter.verify(
    files[name],
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { local: { rules: { 'no-cycle': noCycle } } },
        rules: { 'local/no-cycle': 'error' },
      },
    ],
    path.join(dir, name),
  );
  return messages.map((m) => m.message);
}

describe('local/no-cycle', () => {
  it('reports a circle made only of type imports, naming its route', () => {
    expect(lint('a.ts')).toEqual([
      'Import circle (type-only imports count): a.ts -> b.ts -> c.ts -> a.ts',
    ]);
    expect(lint('c.ts')).toEqual([
      'Import circle (type-only imports count): c.ts -> a.ts -> b.ts -> c.ts',
    ]);
  });

  it('leaves a module that only imports into a circle alone', () => {
    expect(lint('user.ts')).toEqual([]);
    expect(lint('leaf.ts')).toEqual([]);
  });

  it('counts dynamic imports and import() types', () => {
    expect(lint('dyn.ts')).toEqual([
      'Import circle (type-only imports count): dyn.ts -> dyn2.ts -> dyn.ts',
    ]);
    expect(lint('dyn2.ts')).toHaveLength(1);
  });
});
