#!/usr/bin/env node
// Prints the slowest Vitest and Playwright tests of the last `npm test` run, from the JSON reports
// scripts/test.sh asks both runners for (in .tmp/test-timings/). Where the suite's time goes is
// then in every CI log, so a test that grows is seen before the suite passes its 10-minute budget.
//   node scripts/slowest-tests.mjs [count]   (default 15)
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const dir = join(root, '.tmp/test-timings');
const count = Number(process.argv[2] ?? 15);

/** Vitest's JSON report (Jest's shape): files with their tests' durations in ms. */
function vitestTimes(report) {
  const out = [];
  for (const file of report.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      out.push({
        ms: t.duration ?? 0,
        name: `${relative(root, file.name)} > ${t.fullName ?? t.title}`,
        status: t.status,
      });
    }
  }
  return out;
}

/**
 * Vitest files by wall time (startTime to endTime): hooks included, which is where trainings in
 * beforeAll and instance start-ups show (a test's own duration leaves them out).
 */
function vitestFiles(report) {
  return (report.testResults ?? []).map((file) => ({
    ms: Math.max(0, (file.endTime ?? 0) - (file.startTime ?? 0)),
    name: `${relative(root, file.name)} (${(file.assertionResults ?? []).length} tests)`,
    status: file.status === 'failed' ? 'failed' : 'passed',
  }));
}

/** Playwright's JSON report: nested suites of specs, each test's results (retries) with durations. */
function playwrightTimes(report) {
  const out = [];
  const walk = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        const ms = (t.results ?? []).reduce((sum, r) => sum + (r.duration ?? 0), 0);
        const status = t.results?.at(-1)?.status ?? 'skipped';
        out.push({ ms, name: [...trail, spec.title].filter(Boolean).join(' > '), status });
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...trail, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  return out;
}

function table(title, file, read, unit = 'tests') {
  const path = join(dir, file);
  if (!existsSync(path)) {
    console.log(`\n${title}: no report (${relative(root, path)}): the runner did not finish`);
    return;
  }
  let rows;
  try {
    rows = read(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    console.log(`\n${title}: unreadable report ${relative(root, path)} (${err.message})`);
    return;
  }
  const total = rows.reduce((s, r) => s + r.ms, 0);
  rows.sort((a, b) => b.ms - a.ms);
  console.log(
    `\n${title}: the ${Math.min(count, rows.length)} slowest of ${rows.length} ${unit} (${(total / 1000).toFixed(1)} s summed)`,
  );
  for (const r of rows.slice(0, count)) {
    const mark = r.status === 'passed' ? '' : ` [${r.status}]`;
    console.log(`${(r.ms / 1000).toFixed(2).padStart(8)} s  ${r.name}${mark}`);
  }
}

table('Vitest', 'vitest.json', vitestTimes);
table('Vitest files, hooks included', 'vitest.json', vitestFiles, 'files');
table('Playwright', 'playwright.json', playwrightTimes);
