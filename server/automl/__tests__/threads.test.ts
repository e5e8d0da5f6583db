// Training on a thread pool (threads/): any thread count gives the same artifact, byte for
// byte, and the pool's threads end with the training, whether it succeeds, fails or its worker
// is terminated (DROP MODEL during training).
import { readdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, vi } from 'vitest';
import { liveWorkerCount, resolveThreads } from '../threads';
import { type ModelArtifact, serializeArtifact, train } from '../index';
import { wide } from './helpers';

const strip = (a: ModelArtifact) =>
  serializeArtifact(a).replace(/"(trainingTimeMs|training_time)":[0-9.e+-]+/g, '');

describe('thread pool', () => {
  for (const kind of ['regression', 'binary', 'multiclass'] as const) {
    it(`${kind}: 1 and 2 threads train byte-identical artifacts`, () => {
      // Three-class rows carry 7 numbers per bin (scalar ones 3): fewer rows are split as well.
      const d = wide(kind === 'multiclass' ? 5000 : 8000, 7, kind);
      const one = strip(train(d, { target: 'target', threads: 1 }));
      const two = strip(train(d, { target: 'target', threads: 2 }));
      expect(two).toBe(one);
      if (kind === 'multiclass')
        expect(strip(train(d, { target: 'target', threads: 3 }))).toBe(one);
    });
  }

  it('regression from 10k rows (analysis and scale model shared with the model thread): 1 and 2 threads train byte-identical artifacts', () => {
    const d = wide(14_000, 9, 'regression');
    const one = strip(train(d, { target: 'target', threads: 1 }));
    const two = strip(train(d, { target: 'target', threads: 2 }));
    expect(two).toBe(one);
  });

  it('a training that fails midway leaves no pool thread running', async () => {
    // Threads of earlier trainings are told to stop synchronously; their exit events come later.
    await vi.waitFor(() => expect(liveWorkerCount()).toBe(0), { timeout: 10_000 });
    let during = -1;
    expect(() =>
      // Three classes: vector-leaf histograms on the pool and logistic fits on its model thread.
      train(wide(5000, 3, 'multiclass'), {
        target: 'target',
        threads: 2,
        onProgress: (p) => {
          if (p.phase === 4) {
            during = liveWorkerCount();
            throw new Error('cancelled by the caller');
          }
        },
      }),
    ).toThrow('cancelled by the caller');
    expect(during).toBe(2);
    await vi.waitFor(() => expect(liveWorkerCount()).toBe(0), { timeout: 10_000 });
  });

  it('threads come from the option, else AUTOML_THREADS; bad values are rejected', () => {
    const old = process.env.AUTOML_THREADS;
    try {
      process.env.AUTOML_THREADS = '3';
      expect(resolveThreads()).toBe(3);
      expect(resolveThreads(1)).toBe(1);
      process.env.AUTOML_THREADS = 'many';
      expect(() => resolveThreads()).toThrow('AUTOML_THREADS must be an integer from 1 to 64');
      delete process.env.AUTOML_THREADS;
      expect(resolveThreads()).toBeGreaterThanOrEqual(1);
      expect(resolveThreads()).toBeLessThanOrEqual(2);
      expect(() => train(wide(50, 1, 'regression'), { target: 'target', threads: 0 })).toThrow(
        'the threads option must be an integer from 1 to 64, got 0',
      );
    } finally {
      if (old === undefined) delete process.env.AUTOML_THREADS;
      else process.env.AUTOML_THREADS = old;
    }
  });

  it('terminating a training worker (DROP MODEL) also ends its pool threads', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    const bootstrap = new URL('../../automl-worker/bootstrap.mjs', import.meta.url);
    const entry = new URL('./fixtures/train-worker.ts', import.meta.url).href;
    // A first worker runs to the end: threads Node starts lazily exist before the count is taken.
    const run = (rows: number) => {
      const w = new Worker(bootstrap, { workerData: { entry, rows } });
      const poolAlive = new Promise<number>((resolve, reject) => {
        w.on('message', (m: { pool: number }) => resolve(m.pool));
        w.on('error', reject);
      });
      return { w, poolAlive, exited: new Promise((r) => w.on('exit', r)) };
    };
    const warm = run(3000);
    await warm.poolAlive;
    await warm.exited;
    const base = threads();
    const job = run(20_000);
    // The pool's two threads are up once the candidates are trained; the worker is terminated
    // then, during the analysis or the refit.
    expect(await job.poolAlive).toBe(2);
    expect(threads()).toBeGreaterThanOrEqual(base + 3);
    await job.w.terminate();
    await vi.waitFor(() => expect(threads()).toBeLessThanOrEqual(base), { timeout: 10_000 });
  });
});
