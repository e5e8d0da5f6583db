/**
 * Every command in the README and docs/ runs (issue #25 [S] 6): the README's SQL tour through
 * POST /api/sql/query, then each `curl` of every ```sh / ```bash block, in the order a reader meets
 * them, against a real instance on a real port (the documented 127.0.0.1:47334 rewritten to it).
 * A command must exit 0 with curl's --fail-with-body (no HTTP error), and where the docs show its
 * answer (a `# {...}` / `# [...]` comment right under it, or at the end of its line) every JSON key
 * shown there must be in what it answered. Shell variables set in a block (`B=...`) carry on
 * through the rest of the page, as they do for a reader in one terminal.
 *
 * docs/forecasting.md has its own tutorial test (server/sql/__tests__/forecasting-tutorial.test.ts).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { startHarness, waitComplete, type Harness } from '../harness';
import { trainingCache } from '../training-cache';

const ROOT = path.resolve(__dirname, '../../..');
/** The pages whose commands run, in reading order; http-api.md drops the model near its end. */
const PAGES = ['README.md', 'docs/scale.md', 'docs/http-api.md'];
/** Commands that reach beyond this machine, or are the project's own commands: not run here. */
const NOT_RUN: { pattern: RegExp; why: string }[] = [
  { pattern: /^npm /, why: 'the two project commands (CI runs npm test itself)' },
  { pattern: /https:\/\/example\.com/, why: 'a URL import from the internet (no network here)' },
];
const USER = 'ada';
const PASSWORD = 's3cret';

interface Block {
  file: string;
  line: number;
  lang: string;
  text: string;
}

interface Command {
  file: string;
  line: number;
  /** Variable assignments seen so far on the page, then the command. */
  script: string;
  command: string;
  /** The answer as the docs show it, when they do. */
  shown?: string;
}

function fencedBlocks(file: string): Block[] {
  const lines = fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n');
  const out: Block[] = [];
  let open: Block | null = null;
  lines.forEach((l, i) => {
    const fence = /^```(\w*)/.exec(l);
    if (fence && !open) open = { file, line: i + 1, lang: fence[1], text: '' };
    else if (fence && open) {
      out.push(open);
      open = null;
    } else if (open) open.text += l + '\n';
  });
  return out;
}

/** Splits a shell block into commands (backslash continuations joined) with what the docs show. */
function shellCommands(file: string): Command[] {
  const out: Command[] = [];
  const vars: string[] = [];
  for (const b of fencedBlocks(file).filter((x) => x.lang === 'sh' || x.lang === 'bash')) {
    const lines = b.text.split('\n');
    let last: Command | null = null;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (!line.trim()) {
        last = null;
        continue;
      }
      if (line.startsWith('#')) {
        // A comment right under a command shows its answer (several lines may continue it).
        if (last) last.shown = (last.shown ?? '') + line.replace(/^#\s?/, '') + '\n';
        continue;
      }
      let command = line;
      const start = i;
      while (command.endsWith('\\') && i + 1 < lines.length) command = command + '\n' + lines[++i];
      if (/^[A-Z_]+=\S+$/.test(command)) {
        vars.push(command);
        last = null;
        continue;
      }
      const trailing = /\s#\s+([[{].*)$/.exec(command.split('\n').at(-1) ?? '');
      last = {
        file,
        line: b.line + 1 + start,
        script: vars.join('\n'),
        command,
        shown: trailing ? trailing[1] + '\n' : undefined,
      };
      out.push(last);
    }
  }
  return out;
}

/** The JSON keys a shown answer names (`"key":`). */
function shownKeys(shown: string): string[] {
  return [...new Set([...shown.matchAll(/"(\w+)":/g)].map((m) => m[1]))];
}

function runShell(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  // curl fails on an HTTP error answer (and says which), and never waits forever.
  const prelude = 'curl() { command curl --fail-with-body --max-time 120 "$@"; }\n';
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', prelude + script],
      { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

let h: Harness;
let authed: Harness;
let work: string;

beforeAll(async () => {
  [h, authed] = await Promise.all([
    startHarness(trainingCache()),
    startHarness({ ...trainingCache(), AUTH_USERNAME: USER, AUTH_PASSWORD: PASSWORD }),
  ]);
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-commands-'));
  // The files the upload examples send.
  fs.copyFileSync(path.join(ROOT, 'data/demo/home_rentals.csv'), path.join(work, 'sales.csv'));
  // ... and the Parquet one, written from the CSV by DuckDB.
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  const csv = path.join(work, 'sales.csv');
  await c.run(`COPY (SELECT * FROM read_csv('${csv}')) TO '${csv.replace(/csv$/, 'parquet')}'`);
  c.closeSync();
});

afterAll(async () => {
  await Promise.all([h?.close(), authed?.close()]);
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe('the commands in the README and docs/', () => {
  it("runs the README's SQL tour over HTTP, the model it trains included", async () => {
    const sql = fencedBlocks('README.md').filter((b) => b.lang === 'sql');
    expect(sql.length).toBeGreaterThanOrEqual(3);
    for (const block of sql) {
      for (const statement of block.text.split(/;\s*\n/).map((s) => s.trim())) {
        if (!statement) continue;
        const r = await h.sql(statement);
        expect(r.type, `README.md:${block.line}: ${statement}\n${r.error_message}`).not.toBe(
          'error',
        );
        const model = /^CREATE MODEL (?:mindsdb\.)?(\w+)/i.exec(statement);
        if (model) await waitComplete(h, model[1]);
      }
    }
    // The tour's model learns from the columns it lists, not from the leaking initial_price.
    const described = await h.get('/api/projects/mindsdb/models/home_rentals_model/describe');
    expect(described.body[0].inputs).not.toContain('initial_price');
  });

  it('runs every curl command, in reading order, and each answers what the docs show', async () => {
    const login = await authed.post('/api/login', { username: USER, password: PASSWORD });
    expect(login.status).toBe(200);
    const commands = PAGES.flatMap(shellCommands);
    expect(commands.length).toBeGreaterThan(20);
    let ran = 0;
    for (const cmd of commands) {
      const skip = NOT_RUN.find((n) => n.pattern.test(cmd.command));
      if (skip) continue;
      // The sign-in examples are for an instance with AUTH_USERNAME/AUTH_PASSWORD set; the reader
      // pastes the token the login answered into $TOKEN.
      const target =
        /\/api\/login|cookies\.txt|\$TOKEN/.test(cmd.command) || /\/api\/login/.test(cmd.script)
          ? authed
          : h;
      const port = new URL(target.url).port;
      const script = (cmd.script + '\n' + cmd.command).replace(
        /(http:\/\/)?(127\.0\.0\.1|localhost):47334/g,
        `http://127.0.0.1:${port}`,
      );
      const r = await runShell(script, work, { TOKEN: login.body.token });
      const where = `${cmd.file}:${cmd.line}: ${cmd.command}\n${r.stderr}${r.stdout.slice(0, 500)}`;
      expect(r.code, where).toBe(0);
      const written = /-o (\S+)/.exec(cmd.command);
      if (written) expect(fs.statSync(path.join(work, written[1])).size, where).toBeGreaterThan(0);
      else if (!/-X DELETE|\/api\/logout/.test(cmd.command))
        expect(r.stdout.length, where).toBeGreaterThan(0);
      for (const key of cmd.shown ? shownKeys(cmd.shown) : []) {
        expect(r.stdout, `${where}\nthe docs show "${key}"`).toContain(`"${key}":`);
      }
      ran++;
    }
    expect(ran).toBeGreaterThan(20);
  });
});
