/**
 * How many libuv threads the instance process needs (its UV_THREADPOOL_SIZE), apart from DuckDB so
 * that the supervisor can size its child without loading the engine.
 *
 * Every call into DuckDB (connect, prepare, execute, fetch a chunk) runs on libuv's thread pool and
 * holds its thread for as long as DuckDB works on it: four heavy statements on libuv's default four
 * threads left a `SELECT 1` in the short lane waiting for their end (151 s in a probe; 0.1 s with
 * 12 threads). So: one thread per pool connection and lane place, and more for the instance's own
 * work that runs outside the pool (status and catalog reads, training data, loads, the short-lane
 * classification, file I/O, DNS).
 */

const INTERNAL_THREADS = 6;

export function threadpoolSize(connections: number, shortLane: number): number {
  return Math.min(1024, connections + shortLane + INTERNAL_THREADS);
}
