/**
 * Progress of the statements scoring a big table in batches (plan/stream.ts): rows done of rows
 * total, rate and time left, listed in GET /api/status (`engine.scoring`) while they run, which
 * is what the playground's running-query view polls.
 */

/** One running scoring statement, as the status lists it. */
export interface ScoringProgress {
  /** The statement, as the user wrote it (its first 300 characters). */
  statement: string;
  /** Where the rows are read from and written to (`pg.big -> pg.predictions`). */
  what: string;
  rows_done: number;
  /** Rows of the source (a COUNT); null while unknown (PostgreSQL's count not back, or too slow). */
  rows_total: number | null;
  rows_per_s: number;
  /** Seconds left at the current rate; null while the total is unknown. */
  eta_s: number | null;
  running_ms: number;
}

/** A running statement's handle: the scorer reports to it, and ends it. */
export interface ScoringJob {
  setTotal(n: number | null): void;
  add(rows: number): void;
  end(): void;
}

/** The running scoring statements of one instance. */
export class ScoringJobs {
  private readonly jobs = new Set<{
    statement: string;
    what: string;
    start: number;
    done: number;
    total: number | null;
  }>();

  private readonly listeners = new Set<(p: ScoringProgress, ended: boolean) => void>();

  /** Calls `fn` with every report of every job (each batch, and the end); returns the unsubscribe. */
  subscribe(fn: (p: ScoringProgress, ended: boolean) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  start(statement: string, what: string): ScoringJob {
    const job = {
      statement: statement.slice(0, 300),
      what,
      start: Date.now(),
      done: 0,
      total: null as number | null,
    };
    this.jobs.add(job);
    const report = (ended: boolean) => {
      // The total is counted on another connection and may come after the end: not reported.
      if (this.listeners.size === 0 || (!ended && !this.jobs.has(job))) return;
      const p = this.describe(job, Date.now());
      for (const fn of this.listeners) fn(p, ended);
    };
    return {
      setTotal: (n) => {
        job.total = n === null ? null : Math.max(n, job.done);
        report(false);
      },
      add: (rows) => {
        job.done += rows;
        // A source that grew while it was read: the total is at least what was read.
        if (job.total !== null && job.done > job.total) job.total = job.done;
        report(false);
      },
      end: () => {
        if (this.jobs.delete(job)) report(true);
      },
    };
  }

  list(now = Date.now()): ScoringProgress[] {
    return [...this.jobs].map((j) => this.describe(j, now));
  }

  private describe(
    j: { statement: string; what: string; start: number; done: number; total: number | null },
    now: number,
  ): ScoringProgress {
    const ms = Math.max(1, now - j.start);
    const rate = (j.done * 1000) / ms;
    return {
      statement: j.statement,
      what: j.what,
      rows_done: j.done,
      rows_total: j.total,
      rows_per_s: Math.round(rate),
      eta_s:
        j.total === null || rate <= 0 ? null : Math.round(((j.total - j.done) / rate) * 10) / 10,
      running_ms: ms,
    };
  }
}
