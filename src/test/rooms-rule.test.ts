// @vitest-environment node
/**
 * The rooms rule of eslint.config.js: a room of the models feature (and the app) reaches another
 * room only through its index. Linted with the project's own config, on text placed in real rooms.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const eslint = new ESLint({
  cwd: root,
  // Only the dependency rule runs, without type information (it needs none), so this stays fast.
  ruleFilter: ({ ruleId }) => ruleId === 'import-x/no-restricted-paths',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

async function errorsOf(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

// Loading ESLint's plugins takes seconds on a busy machine.
describe('models rooms lint rule', { timeout: 60_000 }, () => {
  it('refuses a file inside another room and accepts its index', async () => {
    const file = 'src/features/models/compare/probe.ts';
    const inside = await errorsOf(file, "export { sweepValues } from '../what-if/sweep';\n");
    expect(inside).toHaveLength(1);
    expect(inside[0]).toMatch(/no-restricted-paths: .*import another room through its index/);
    expect(await errorsOf(file, "export { sweepValues } from '../what-if';\n")).toEqual([]);
    // Its own room's files are its own.
    expect(await errorsOf(file, "export { compareMetrics } from './compare';\n")).toEqual([]);
  });

  it('holds the app to the rooms’ indexes too', async () => {
    const file = 'src/app/probe.ts';
    expect(
      await errorsOf(file, "export { asTab } from '../features/models/nav/nav';\n"),
    ).toHaveLength(1);
    expect(await errorsOf(file, "export { asTab } from '../features/models/nav';\n")).toEqual([]);
  });
});
