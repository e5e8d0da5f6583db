/**
 * A throwaway PostgreSQL server for tests and the bench: Debian's PostgreSQL binaries, a data
 * directory in a temp directory (in Vitest a copy of the run's one initdb, else `initdb`), started
 * on a free loopback port with its unix socket inside that directory,
 * a database and a password user created, home_rentals seeded from data/demo. `stop()` removes it.
 *
 * PostgreSQL refuses to run as root, so when the tests run as root (CI containers) every server
 * command runs as the `postgres` system user (runuser), in a directory handed over to it.
 * A missing PostgreSQL is an error with the fix in its message, never a skipped test.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Papa from 'papaparse';
import pg from 'pg';
import { inject } from 'vitest';
// `pgTemplateDir` is declared with the set-up that provides it.
import type {} from '../../test/global-setup';
import { runTemplate } from '../../test/run-template';

const run = promisify(execFile);

export interface PgTestServer {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  /** The server's data and socket directory. */
  dir: string;
  /** The server log so far (statements are logged: what reached PostgreSQL). */
  log(): string;
  /** A client connected as the superuser to `database` (seeding, assertions). */
  admin(): Promise<pg.Client>;
  /** The SQL that connects an instance to this server as `name`, as the user (not superuser). */
  createDatabase(name: string): string;
  stop(): Promise<void>;
}

/** The newest PostgreSQL bin directory: Debian's /usr/lib/postgresql/<v>/bin, else PATH. */
function findPgBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .filter((v) => fs.existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return path.join(root, versions[0], 'bin');
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')))
      return dir;
  }
  throw new Error(
    'PostgreSQL server binaries (initdb, pg_ctl) not found: install them with `apt-get install postgresql` (.ci/run does this on CI). ' +
      'The integration tests need a real PostgreSQL and do not skip without one.',
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** Runs a PostgreSQL binary as the postgres user when we are root. */
async function pgCmd(bin: string, args: string[], timeout = 60_000) {
  const cmd = isRoot() ? 'runuser' : bin;
  const argv = isRoot() ? ['-u', 'postgres', '--', bin, ...args] : args;
  try {
    return await run(cmd, argv, { timeout, cwd: os.tmpdir() });
  } catch (err) {
    const e = err as Error & { stderr?: string; stdout?: string };
    throw new Error(
      `${path.basename(bin)} failed: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`,
      { cause: err },
    );
  }
}

const DEMO_CSV = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../data/demo/home_rentals.csv',
);

/** home_rentals as in example_db (sqft's two decimal-comma values rounded like demo-data.ts). */
async function seedHomeRentals(client: pg.Client, table = 'home_rentals'): Promise<number> {
  const parsed = Papa.parse<Record<string, string>>(fs.readFileSync(DEMO_CSV, 'utf8'), {
    header: true,
    skipEmptyLines: true,
  });
  const rows = parsed.data;
  const col = (k: string, f: (v: string) => unknown) => rows.map((r) => f(r[k]));
  const int = (v: string) => Math.round(Number(v.replace(',', '.')));
  await client.query(`CREATE TABLE ${table} (
    number_of_rooms integer, number_of_bathrooms integer, sqft integer, location text,
    days_on_market integer, initial_price integer, neighborhood text, rental_price double precision)`);
  await client.query(
    `INSERT INTO ${table} SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[], $6::int[], $7::text[], $8::float8[])`,
    [
      col('number_of_rooms', int),
      col('number_of_bathrooms', int),
      col('sqft', int),
      col('location', String),
      col('days_on_market', int),
      col('initial_price', int),
      col('neighborhood', String),
      col('rental_price', Number),
    ],
  );
  return rows.length;
}

/** `initdb` of a server's data directory, as every server of these tests is made. */
async function initdb(bin: string, data: string): Promise<void> {
  await pgCmd(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
  ]);
}

/**
 * The run's folder for the initdb template (server/test/global-setup.ts), in Vitest; none
 * outside it (the benches) or with `TEST_PG_TEMPLATE=0`: every server then runs initdb itself.
 */
function templateFolder(): string | null {
  if (!process.env.VITEST || process.env.TEST_PG_TEMPLATE === '0') return null;
  return inject('pgTemplateDir') ?? null;
}

let template: Promise<string> | null = null;

/** The run's initdb output, made by the first test process that starts a server (runTemplate). */
function makeTemplate(bin: string, folder: string): Promise<string> {
  return runTemplate(folder, 'data', async (work) => {
    if (isRoot()) await run('chown', ['postgres:postgres', work]);
    await initdb(bin, path.join(work, 'data'));
    return path.join(work, 'data');
  });
}

/**
 * A fresh data directory at `data`: a copy of the run's initdb output (`cp -a`, as the server's
 * user: modes and owner as initdb left them; 0.06-0.09 CPU-s), else initdb (0.61-0.65 CPU-s); the
 * directory it writes depends on nothing of the server (port and sockets are given at start).
 */
async function newDataDir(bin: string, data: string): Promise<void> {
  const folder = templateFolder();
  if (!folder) return initdb(bin, data);
  template ??= makeTemplate(bin, folder);
  await pgCmd('cp', ['-a', await template, data]);
}

export async function startPgServer(opts: { seed?: boolean } = {}): Promise<PgTestServer> {
  const bin = findPgBin();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-test-'));
  const data = path.join(dir, 'data');
  if (isRoot()) await run('chown', ['-R', 'postgres:postgres', dir]);
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const user = 'playground_tester';
  const password = 'pw-Secret-7261';
  const database = 'playground_test';
  let started = false;
  const stop = async () => {
    if (started) {
      await pgCmd(
        path.join(bin, 'pg_ctl'),
        ['-D', data, '-m', 'immediate', '-w', 'stop'],
        30_000,
      ).catch(() => undefined);
      started = false;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await newDataDir(bin, data);
    const serverOpts = [
      '-c listen_addresses=127.0.0.1',
      `-p ${port}`,
      `-c unix_socket_directories=${dir}`,
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c shared_buffers=64MB',
      '-c max_connections=40',
      // Every statement in server.log, so tests can check what was pushed down.
      '-c log_statement=all',
      '-c log_parameter_max_length=0',
    ].join(' ');
    await pgCmd(path.join(bin, 'pg_ctl'), [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      serverOpts,
      'start',
    ]);
    started = true;
    const superuser = (db: string) =>
      new pg.Client({ host: dir, port, user: 'postgres', database: db });
    const setup = superuser('postgres');
    await setup.connect();
    await setup.query(`CREATE ROLE ${user} LOGIN PASSWORD '${password}'`);
    await setup.query(`CREATE DATABASE ${database} OWNER ${user}`);
    await setup.end();
    if (opts.seed !== false) {
      // Seed as the test user over TCP: also proves password authentication works.
      const c = new pg.Client({ host: '127.0.0.1', port, user, password, database });
      await c.connect();
      await seedHomeRentals(c);
      await c.end();
    }
    return {
      host: '127.0.0.1',
      port,
      user,
      password,
      database,
      dir,
      log: () => fs.readFileSync(path.join(dir, 'server.log'), 'utf8'),
      createDatabase: (name) =>
        `CREATE DATABASE ${name} WITH ENGINE = 'postgres', PARAMETERS = ${JSON.stringify({
          host: '127.0.0.1',
          port,
          user,
          password,
          database,
        })}`,
      async admin() {
        const c = superuser(database);
        // The server may be stopped under a forgotten client; that must not crash the process.
        c.on('error', () => undefined);
        await c.connect();
        return c;
      },
      stop,
    };
  } catch (err) {
    const log = path.join(dir, 'server.log');
    const tail = fs.existsSync(log)
      ? `\nserver log:\n${fs.readFileSync(log, 'utf8').slice(-2000)}`
      : '';
    await stop();
    throw new Error(`${(err as Error).message}${tail}`, { cause: err });
  }
}
