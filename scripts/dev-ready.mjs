// `npm run dev` prints the playground's URL only once a first visit will be quick: Vite has
// pre-bundled the dependencies the first screen needs and transformed its modules. Without this
// the URL appears within a second and, after a fresh install, the first visit waits ~10 s for
// the dependency optimizer (2 busy cores). The instance is not waited for: the editor opens
// without it, and the connection pill says when it answers.

/** The first screen's modules: Vite transforms them at start (server.warmup) and we wait for them. */
export const FIRST_SCREEN = [
  'src/main.tsx',
  'src/features/sql-editor/SqlEditor.tsx',
  'src/features/results/ResultGrid.tsx',
];

/** Pre-bundled dependency URLs a Vite dev module imports (`/node_modules/.vite/deps/...`). */
export function dependencyUrls(code) {
  return [...new Set([...code.matchAll(/["'](\/node_modules\/[^"'\s]+)["']/g)].map((m) => m[1]))];
}

/** The app's own modules a Vite dev module imports statically (not `import()`: those load later). */
export function staticImports(code) {
  const re = /\bimport\s*(?:[^"'();]*?\sfrom\s*)?["'](\/(?:src|contract)\/[^"'\s]+)["']/g;
  return [...new Set([...code.matchAll(re)].map((m) => m[1]))];
}

async function get(url, signal) {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`${url.pathname}: HTTP ${res.status}`);
  return res.text();
}

/**
 * Requests the first screen's modules, what they import statically, and the dependencies all of
 * them import, as the browser will; a dependency request is answered once the optimizer has
 * bundled it. Returns how many requests were made; stops waiting after `timeoutMs`.
 */
export async function warmUp(base, { timeoutMs = 120_000, maxModules = 1000 } = {}) {
  const signal = AbortSignal.timeout(timeoutMs);
  const seen = new Set();
  const deps = new Set();
  let next = FIRST_SCREEN.map((f) => `/${f}`);
  while (next.length > 0 && seen.size < maxModules) {
    for (const u of next) seen.add(u);
    // A false match (a path inside a string) only costs a 404.
    const codes = await Promise.all(next.map((u) => get(new URL(u, base), signal).catch(() => '')));
    for (const c of codes) for (const d of dependencyUrls(c)) deps.add(d);
    next = [...new Set(codes.flatMap(staticImports))].filter((u) => !seen.has(u));
  }
  await Promise.all([...deps].map((d) => get(new URL(d, base), signal).catch(() => '')));
  return seen.size + deps.size;
}
