// ESLint rule `local/no-cycle`: no import circle between the project's modules, type-only imports
// included. import-x/no-cycle skips `import type` edges (they vanish at runtime), but a circle of
// types still ties the modules' meanings together: neither reads on its own, and the next value
// import along it closes a runtime circle. Edges come from TypeScript's own scan of each file
// (ts.preProcessFile: static, type-only, re-exports, import(), require) resolved as the tsconfig
// does (bundler resolution); packages and declaration files are not followed.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const RESOLUTION = {
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  module: ts.ModuleKind.ESNext,
  allowImportingTsExtensions: true,
  resolveJsonModule: true,
  jsx: ts.JsxEmit.ReactJSX,
};

/** A module's project-internal imports, re-read when the file changes (editors lint for hours). */
const edges = new Map();

function resolveImport(spec, from) {
  if (!spec.startsWith('.') && !spec.startsWith('/')) return null;
  const r = ts.resolveModuleName(spec, from, RESOLUTION, ts.sys).resolvedModule;
  if (!r || r.isExternalLibraryImport || r.resolvedFileName.endsWith('.d.ts')) return null;
  return path.resolve(r.resolvedFileName);
}

function importsOf(file) {
  let mtime;
  try {
    mtime = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const hit = edges.get(file);
  if (hit && hit.mtime === mtime) return hit.deps;
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const deps = [
    ...new Set(importedFiles.map((f) => resolveImport(f.fileName, file)).filter(Boolean)),
  ];
  edges.set(file, { mtime, deps });
  return deps;
}

/**
 * The path from `start` back to `file`, or null. `clear` holds modules known not to lead back
 * (shared by the searches from one file's imports).
 */
function pathBack(start, file, clear) {
  const parent = new Map([[start, null]]);
  const stack = [start];
  while (stack.length) {
    const m = stack.pop();
    for (const d of importsOf(m)) {
      if (d === file) {
        const route = [];
        for (let x = m; x !== null; x = parent.get(x)) route.push(x);
        return route.reverse();
      }
      if (parent.has(d) || clear.has(d)) continue;
      parent.set(d, m);
      stack.push(d);
    }
  }
  for (const m of parent.keys()) clear.add(m);
  return null;
}

/** The module specifier of an import-like node, if it has a literal one. */
function specifierOf(node) {
  const src = node.source ?? node.argument?.literal ?? node.moduleReference?.expression;
  return src && src.type === 'Literal' && typeof src.value === 'string' ? src.value : null;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'Forbid import circles, type-only imports included.' },
    schema: [],
    messages: { cycle: 'Import circle (type-only imports count): {{route}}' },
  },
  create(context) {
    const file = path.resolve(context.physicalFilename);
    const root = context.cwd;
    const clear = new Set();
    const check = (node) => {
      const spec = specifierOf(node);
      const target = spec && resolveImport(spec, file);
      if (!target || target === file) return;
      const route = pathBack(target, file, clear);
      if (!route) return;
      const names = [file, ...route, file].map((f) => path.relative(root, f));
      context.report({ node, messageId: 'cycle', data: { route: names.join(' -> ') } });
    };
    return {
      ImportDeclaration: check,
      ExportAllDeclaration: check,
      ExportNamedDeclaration: (node) => node.source && check(node),
      ImportExpression: check,
      TSImportType: check,
      TSImportEqualsDeclaration: check,
    };
  },
};
