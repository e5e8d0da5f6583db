/**
 * The crash journal: what the engine is running right now, written down before it runs, so that
 * after a native crash (a SIGSEGV inside DuckDB takes the whole process with it) the supervisor
 * (server/supervisor/) knows which statements were in flight, records the crash, and the next
 * instance refuses those statements on sight instead of crashing on them again.
 *
 * Cheap by design: one fixed-size slot per running statement in `DATA_DIR/engine/journal`, set
 * with one positional write() when the statement starts and cleared with a one-byte write() when
 * it ends. No fsync: a write() is in the kernel's page cache as soon as it returns, and a process
 * crash does not lose the page cache (a power cut may, and does not matter here).
 *
 * Beside it, `crashes.json` (the history the status shows) and `quarantine.json` (the statements
 * refused on sight, with when they crashed the engine), both written atomically.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic';

const SLOT = 2048;
const HEADER = 44;
const TEXT_BYTES = SLOT - HEADER;
const RUNNING = 1;
const CLIENT = 1;

const JOURNAL_FILE = 'journal';

/** Where an instance keeps its crash journal, history and quarantine: `DATA_DIR/engine`. */
export const journalDirOf = (dataDir: string) => path.join(dataDir, 'engine');
const CRASHES_FILE = 'crashes.json';
const QUARANTINE_FILE = 'quarantine.json';
/** Crashes kept in the history. */
const HISTORY = 20;

/** Signals that mean the process died of itself (native code), not of someone's kill. */
const NATIVE_CRASH_SIGNALS = new Set([
  'SIGSEGV',
  'SIGBUS',
  'SIGILL',
  'SIGFPE',
  'SIGABRT',
  'SIGTRAP',
  'SIGSYS',
]);

/** A statement that was running when the process ended. */
export interface JournalEntry {
  startedAt: string;
  /** The client's statement as written (a prefix of it), or the engine's own SQL. */
  text: string;
  /** SHA-256 of the client's statement, hex; null for the instance's own statements. */
  hash: string | null;
}

export interface CrashRecord {
  at: string;
  /** The signal that ended the process (`SIGSEGV`), or null with an exit code. */
  signal: string | null;
  code: number | null;
  /** Statements running at the time (client statements first). */
  statements: JournalEntry[];
  /** Whether those client statements are refused from now on (native crashes only). */
  quarantined: boolean;
}

interface QuarantineEntry {
  hash: string;
  text: string;
  at: string;
  signal: string | null;
  until: string;
}

export const statementHash = (text: string) =>
  crypto.createHash('sha256').update(text.trim()).digest('hex');

/** The slots of a running engine; one per statement running at once. */
export class CrashJournal {
  private readonly fd: number;
  private readonly free: number[] = [];
  private slots = 0;
  private readonly clear = Buffer.alloc(1);

  /** Opens `dir/journal` afresh (what it held was read by the supervisor already). */
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.fd = fs.openSync(path.join(dir, JOURNAL_FILE), 'w', 0o600);
  }

  /** Writes a statement into a free slot; returns the slot for `end`. */
  begin(text: string, hash: string | null): number {
    const slot = this.free.pop() ?? this.slots++;
    const buf = Buffer.alloc(HEADER + Math.min(TEXT_BYTES, Buffer.byteLength(text)));
    buf[0] = RUNNING;
    buf.writeDoubleLE(Date.now(), 1);
    buf[9] = hash ? CLIENT : 0;
    if (hash) Buffer.from(hash, 'hex').copy(buf, 10);
    const n = buf.write(text, HEADER, 'utf8');
    buf.writeUInt16LE(n, 42);
    fs.writeSync(this.fd, buf, 0, HEADER + n, slot * SLOT);
    return slot;
  }

  end(slot: number): void {
    fs.writeSync(this.fd, this.clear, 0, 1, slot * SLOT);
    this.free.push(slot);
  }

  close(): void {
    try {
      fs.closeSync(this.fd);
    } catch {
      // closed already
    }
  }
}

/** The statements a journal file says were running (client statements first). */
export function readJournal(dir: string): JournalEntry[] {
  let data: Buffer;
  try {
    data = fs.readFileSync(path.join(dir, JOURNAL_FILE));
  } catch {
    return [];
  }
  const out: JournalEntry[] = [];
  for (let at = 0; at + HEADER <= data.length; at += SLOT) {
    if (data[at] !== RUNNING) continue;
    const len = Math.min(data.readUInt16LE(at + 42), TEXT_BYTES);
    out.push({
      startedAt: new Date(data.readDoubleLE(at + 1)).toISOString(),
      hash: data[at + 9] === CLIENT ? data.subarray(at + 10, at + 42).toString('hex') : null,
      text: data.subarray(at + HEADER, at + HEADER + len).toString('utf8'),
    });
  }
  return out.sort((a, b) => Number(b.hash !== null) - Number(a.hash !== null));
}

function readJson<T>(file: string, fallback: T): T {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return fallback;
  }
}

/**
 * Records how the engine's process ended (the supervisor calls it before the next start): the
 * statements of the journal go into the history, and after a native crash the client
 * statements among them are refused for `quarantineMs`.
 */
export function recordCrash(
  dir: string,
  how: { signal: string | null; code: number | null },
  quarantineMs: number,
): CrashRecord {
  const statements = readJournal(dir);
  const native = !!how.signal && NATIVE_CRASH_SIGNALS.has(how.signal);
  const at = new Date();
  const record: CrashRecord = {
    at: at.toISOString(),
    ...how,
    statements,
    quarantined: native && statements.some((s) => s.hash),
  };
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const history = readJson<CrashRecord[]>(path.join(dir, CRASHES_FILE), []);
  writeFileAtomic(
    path.join(dir, CRASHES_FILE),
    JSON.stringify([...history, record].slice(-HISTORY)),
  );
  if (record.quarantined) {
    const until = new Date(at.getTime() + quarantineMs).toISOString();
    const q = readJson<QuarantineEntry[]>(path.join(dir, QUARANTINE_FILE), []).filter(
      (e) => e.until > record.at,
    );
    for (const s of statements) {
      if (!s.hash || q.some((e) => e.hash === s.hash)) continue;
      q.push({
        hash: s.hash,
        text: s.text.slice(0, 500),
        at: record.at,
        signal: how.signal,
        until,
      });
    }
    writeFileAtomic(path.join(dir, QUARANTINE_FILE), JSON.stringify(q));
  }
  return record;
}

/** The crash history (oldest first). */
export function crashHistory(dir: string): CrashRecord[] {
  return readJson<CrashRecord[]>(path.join(dir, CRASHES_FILE), []);
}

/** Statements refused on sight, by hash: the message that says why (or null). */
export class Quarantine {
  private readonly entries: Map<string, QuarantineEntry>;

  constructor(dir: string) {
    const now = new Date().toISOString();
    this.entries = new Map(
      readJson<QuarantineEntry[]>(path.join(dir, QUARANTINE_FILE), [])
        .filter((e) => e.until > now)
        .map((e) => [e.hash, e]),
    );
  }

  get size(): number {
    return this.entries.size;
  }

  reason(statement: string): string | null {
    if (this.entries.size === 0) return null;
    const e = this.entries.get(statementHash(statement));
    if (!e || e.until <= new Date().toISOString()) return null;
    return `This statement was running when the engine crashed (${e.signal ?? 'ended'} at ${e.at}); the instance restarted, and refuses it until ${e.until} so it cannot take the instance down again (CRASH_QUARANTINE_HOURS)`;
  }
}
