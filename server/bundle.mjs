// A TypeScript entry of this repository as one ES module, built by esbuild on first use and kept
// in node_modules/.cache/ts-bundles until a source it holds changes: the instance's processes
// (launch.mjs: the supervisor, the instance process) and its worker threads
// (automl-worker/bootstrap.mjs) load these. Registering tsx in a worker thread and loading ~110
// modules through its hooks cost a start 0.4-0.8 CPU-s; the bundle loads in 0.05-0.1. Each module
// keeps its own `import.meta.url` (the source file's URL: the files it reads and the entries it
// starts are found as from the sources), and packages stay imports, resolved from the repository's
// node_modules as from the sources. Every start checks the bundle against the sources' bytes
// (~110-270 files, ~0.01 CPU-s); a change in any of them, or in this file, builds a new one. Plain
// JavaScript: it runs before anything can load TypeScript.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const SELF = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(SELF), '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'ts-bundles');
/** The identifier each module's `import.meta.url` becomes (a constant of its own per module). */
const META_URL = '__import_meta_url';

/** Hash of this file and of the sources (paths relative to the repository) with their bytes. */
function digest(files, read = (f) => fs.readFileSync(path.join(ROOT, f))) {
  const h = crypto.createHash('sha256');
  h.update(fs.readFileSync(SELF));
  for (const f of files) h.update(`\0${f}\0`).update(read(f));
  return h.digest('hex').slice(0, 20);
}

/**
 * The file URL of the bundle of `entryUrl` (a .ts file in this repository), built if it is missing
 * or older than its sources; null when it cannot be built or written (the caller then loads the
 * sources through tsx).
 */
export async function bundledEntry(entryUrl) {
  const entry = fileURLToPath(entryUrl);
  const rel = path.relative(ROOT, entry);
  if (rel.startsWith('..') || path.isAbsolute(rel)) return null;
  const name = rel.replace(/[^A-Za-z0-9-]+/g, '_');
  const bundleFile = (key) => path.join(CACHE, `${name}-${key}.mjs`);
  try {
    const { key, inputs } = JSON.parse(fs.readFileSync(path.join(CACHE, `${name}.json`), 'utf8'));
    if (digest(inputs) === key && fs.existsSync(bundleFile(key)))
      return pathToFileURL(bundleFile(key)).href;
  } catch {
    // No bundle yet, or one of its sources is gone: build it.
  }
  try {
    return pathToFileURL(await build(entry, name, bundleFile)).href;
  } catch (err) {
    process.emitWarning(`${rel}: no bundle (${err?.message ?? err}); loading it through tsx`);
    return null;
  }
}

/**
 * Bundles of `name` other than `keep` last changed over an hour ago (a process may still load
 * one), and files left by builds that did not finish (a worker terminated meanwhile).
 */
function removeStale(name, keep) {
  const hourAgo = Date.now() - 3_600_000;
  for (const f of fs.readdirSync(CACHE)) {
    const file = path.join(CACHE, f);
    if (
      !(f.startsWith(`${name}-`) || f.startsWith(`.${name}.`)) ||
      file === keep ||
      file === `${keep}.map`
    )
      continue;
    try {
      if (fs.statSync(file).mtimeMs < hourAgo) fs.rmSync(file, { force: true });
    } catch {
      // Removed meanwhile by another process.
    }
  }
}

async function build(entry, name, bundleFile) {
  const esbuild = await import('esbuild');
  /** The bytes each source was bundled from, by path relative to the repository. */
  const read = new Map();
  const keepMetaUrl = {
    name: 'keep-import-meta-url',
    setup(b) {
      b.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        const bytes = await fs.promises.readFile(args.path);
        read.set(path.relative(ROOT, args.path), bytes);
        // On the first line, so that the source map's lines stay the file's.
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return {
          contents: `const ${META_URL} = ${url}; ${bytes}`,
          loader: path.extname(args.path).slice(1).replace(/^[cm]/, ''),
        };
      });
    },
  };
  const tmp = path.join(CACHE, `.${name}.${process.pid}.${crypto.randomUUID()}`);
  fs.mkdirSync(CACHE, { recursive: true });
  try {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile: `${tmp}.mjs`,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: `node${process.versions.node}`,
      packages: 'external',
      define: { 'import.meta.url': META_URL },
      sourcemap: 'linked',
      metafile: true,
      logLevel: 'silent',
      plugins: [keepMetaUrl],
    });
    const inputs = Object.keys(result.metafile.inputs).sort();
    const key = digest(inputs, (f) => read.get(f) ?? fs.readFileSync(path.join(ROOT, f)));
    const file = bundleFile(key);
    // The map's name stays the one the bundle's last line gives.
    fs.renameSync(`${tmp}.mjs.map`, `${file}.map`);
    fs.writeFileSync(
      `${tmp}.mjs`,
      fs
        .readFileSync(`${tmp}.mjs`, 'utf8')
        .replace(
          /\/\/# sourceMappingURL=\S+\s*$/,
          `//# sourceMappingURL=${path.basename(file)}.map\n`,
        ),
    );
    fs.renameSync(`${tmp}.mjs`, file);
    fs.writeFileSync(`${tmp}.json`, JSON.stringify({ key, inputs }));
    fs.renameSync(`${tmp}.json`, path.join(CACHE, `${name}.json`));
    removeStale(name, file);
    return file;
  } finally {
    for (const f of [`${tmp}.mjs`, `${tmp}.mjs.map`, `${tmp}.json`]) fs.rmSync(f, { force: true });
    await esbuild.stop?.();
  }
}
