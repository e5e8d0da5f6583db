/**
 * `npm run bench`: every speed, memory and quality target of docs/DESIGN.md section 6, each printed
 * with its measured value beside the target. Never part of `npm test`. Select suites with
 * arguments: `npm run bench -- sql automl`.
 */
import os from 'node:os';
import type { BenchLine } from './types';

type Suite = { name: string; run: () => Promise<BenchLine[]> };

const suites: Suite[] = [
  { name: 'sql', run: async () => (await import('./sql')).runSqlBench() },
  { name: 'automl', run: async () => (await import('./automl')).runAutomlBench() },
  { name: 'predict', run: async () => (await import('./predict')).runPredictBench() },
  { name: 'timeseries', run: async () => (await import('./timeseries')).runTimeseriesBench() },
  { name: 'evaluation', run: async () => (await import('./evaluation')).runEvaluationBench() },
  { name: 'ui', run: async () => (await import('./ui')).runUiBench() },
  { name: 'dev', run: async () => (await import('./dev-start')).runDevStartBench() },
  { name: 'soak', run: async () => (await import('./soak')).runSoakBench() },
  { name: 'pg', run: async () => (await import('./pg')).runPgBench() },
  { name: 'monitoring', run: async () => (await import('./monitoring')).runMonitoringBench() },
  { name: 'scale', run: async () => (await import('./scale')).runScaleBench() },
  { name: 'lanes', run: async () => (await import('./lanes')).runLanesBench() },
];

function fmt(v: number) {
  if (!Number.isFinite(v)) return String(v);
  if (Math.abs(v) >= 1000) return Math.round(v).toLocaleString('en-US');
  return v.toPrecision(4);
}

async function main() {
  const wanted = process.argv.slice(2);
  const lines: BenchLine[] = [];
  for (const s of suites) {
    if (wanted.length && !wanted.includes(s.name)) continue;
    process.stderr.write(`\n[bench] ${s.name}\n`);
    try {
      lines.push(...(await s.run()));
    } catch (err) {
      lines.push({
        name: `${s.name}: failed to run (${(err as Error).message.split('\n')[0]})`,
        value: NaN,
        unit: '',
        target: '',
        pass: false,
      });
    }
  }
  const [l1, l5, l15] = os.loadavg().map((x) => x.toFixed(1));
  console.log(`\nload average at the end: ${l1}, ${l5}, ${l15} on ${os.cpus().length} cores`);
  const w = Math.max(...lines.map((l) => l.name.length));
  console.log(`\n${'measure'.padEnd(w)}  ${'value'.padStart(12)} unit   target        result`);
  for (const l of lines) {
    console.log(
      `${l.name.padEnd(w)}  ${fmt(l.value).padStart(12)} ${l.unit.padEnd(6)} ${l.target.padEnd(13)} ${l.pass ? 'ok' : 'MISS'}`,
    );
  }
  const missed = lines.filter((l) => !l.pass).length;
  console.log(`\n${lines.length - missed} of ${lines.length} figures meet their targets`);
}

void main();
