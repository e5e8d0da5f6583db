/**
 * `npm run dev`, measured as a user meets it (issue 17: "first visit under 3 s"): from the
 * command to the printed URL, and from opening that URL in Chromium to the editor drawn. Once
 * with Vite's dependency cache removed (the first start after `npm install`), once with it warm
 * (any later start). The instance and Vite run on their own ports with a scratch DATA_DIR. Each
 * figure names the machine's load average (1 min) when it was taken: on a busy machine the same
 * start takes several times as long.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS } from '../e2e/chromium-args';
import { type BenchLine, progress } from './types';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VITE_CACHE = path.join(ROOT, 'node_modules', '.vite');
const UI_PORT = 5795;
const PORT = 5796;

interface Start {
  urlMs: number;
  visitMs: number;
  /** Load average (1 min) when the URL was printed and when the editor was drawn. */
  urlLoad: number;
  visitLoad: number;
}

const load = () => os.loadavg()[0];

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.on('exit', () => resolve());
    process.kill(-child.pid!, 'SIGTERM');
  });
}

async function startAndVisit(dataDir: string): Promise<Start> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['scripts/dev.mjs'], {
    cwd: ROOT,
    env: { ...process.env, UI_PORT: String(UI_PORT), PORT: String(PORT), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error('no URL after 180 s')), 180_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = out.match(
          /Playground(?: ready in [\d.]+ s \(\d+ modules prepared\))?: (http\S+)/,
        );
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.on('exit', (code) => reject(new Error(`npm run dev exited (${code})`)));
    });
    const urlMs = performance.now() - t0;
    const urlLoad = load();
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    });
    try {
      const page = await browser.newPage();
      const t1 = performance.now();
      await page.goto(url);
      await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 120_000 });
      return { urlMs, urlLoad, visitMs: performance.now() - t1, visitLoad: load() };
    } finally {
      await browser.close();
    }
  } finally {
    await stop(child);
  }
}

export async function runDevStartBench(): Promise<BenchLine[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-dev-'));
  try {
    progress('npm run dev after a fresh install (Vite dependency cache removed)');
    fs.rmSync(VITE_CACHE, { recursive: true, force: true });
    const fresh = await startAndVisit(dataDir);
    progress('npm run dev again (cache warm)');
    const warm = await startAndVisit(dataDir);
    const cores = os.cpus().length;
    const line = (
      name: string,
      ms: number,
      loadAvg: number,
      target: string,
      limit: number,
    ): BenchLine => ({
      name: `${name} (load ${loadAvg.toFixed(1)} on ${cores} cores)`,
      value: ms / 1000,
      unit: 's',
      target,
      pass: ms < limit,
    });
    return [
      line('dev: first start after install, URL printed', fresh.urlMs, fresh.urlLoad, '', Infinity),
      line(
        'dev: first start, open URL -> editor drawn',
        fresh.visitMs,
        fresh.visitLoad,
        '< 3 s',
        3000,
      ),
      line('dev: later start, URL printed', warm.urlMs, warm.urlLoad, '', Infinity),
      line(
        'dev: later start, open URL -> editor drawn',
        warm.visitMs,
        warm.visitLoad,
        '< 3 s',
        3000,
      ),
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
