#!/usr/bin/env node
// Fails (exit 1) when the TypeScript sources of the workspaces (packages/*, apps/*) import each
// other in a cycle, and lists every cycle found. Usage:
//
//   node scripts/check-cycles.mjs [--runtime] [--json] [--root DIR]
//
//   --runtime  ignore type-only edges (`import type`, `export type`, all-`type` specifier lists):
//              TypeScript erases them, so they cannot change module load order
//   --json     print {files, edges, cycles} as JSON instead of text
//   --root     repository root to check (default: this script's repository)
//
// Own walk over the TypeScript parser (already a devDependency) instead of madge: madge 8 took 13 s
// here for the same files, pulls in 141 packages, and skips imports of our own workspace packages
// (`@engram/db` resolves to a .ts entry it does not follow); this takes well under 2 s and follows
// them through each package.json's `exports`. Dynamic `import()` is not an edge: it runs after
// every module has loaded, so it cannot take part in an initialisation cycle.
//
// A cycle is reported per strongly connected component of the import graph: its files and, for
// each file, the shortest cycle through it (duplicates dropped), so a knot of many files shows the
// few short loops to cut rather than every one of its possibly exponential number of paths.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SKIP_DIRS = new Set(['node_modules', 'dist', 'artifacts', 'coverage']);
const SOURCE_RE = /\.(?:ts|tsx|mts|cts)$/;

function parseArgs(argv) {
  const opts = { runtime: false, json: false, root: resolve(dirname(fileURLToPath(import.meta.url)), '..') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--runtime') opts.runtime = true;
    else if (a === '--json') opts.json = true;
    else if (a === '--root') opts.root = resolve(argv[++i] ?? '.');
    else {
      console.error(`unknown argument ${a}`);
      process.exit(2);
    }
  }
  return opts;
}

/** The workspace folders named by the root package.json (`packages/x`, `apps/y`, or globs `dir/*`). */
function workspaceDirs(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const out = [];
  for (const w of pkg.workspaces ?? []) {
    if (w.endsWith('/*')) {
      const base = join(root, w.slice(0, -2));
      if (existsSync(base)) for (const name of readdirSync(base)) if (existsSync(join(base, name, 'package.json'))) out.push(join(base, name));
    } else if (existsSync(join(root, w, 'package.json'))) out.push(join(root, w));
  }
  return out;
}

/** Package name → { dir, exports: subpath → file } for our own packages, so `@engram/db` is an edge. */
function workspacePackages(dirs) {
  const map = new Map();
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    if (!pkg.name) continue;
    const exports = new Map();
    const add = (sub, target) => {
      const file = typeof target === 'string' ? target : target && (target.import ?? target.default ?? target.types);
      if (typeof file === 'string') exports.set(sub, resolve(dir, file));
    };
    if (typeof pkg.exports === 'string') add('.', pkg.exports);
    else if (pkg.exports && typeof pkg.exports === 'object') for (const [sub, target] of Object.entries(pkg.exports)) add(sub, target);
    if (!exports.has('.') && typeof pkg.main === 'string') add('.', pkg.main);
    map.set(pkg.name, { dir, exports });
  }
  return map;
}

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (SKIP_DIRS.has(name) || name.startsWith('.next')) continue;
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(full, out);
    else if (SOURCE_RE.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Static import/export-from specifiers of one file, each marked type-only or not. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, kind);
  const out = [];
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const clause = st.importClause;
      let typeOnly = false;
      if (clause) {
        const named = clause.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null;
        typeOnly = clause.isTypeOnly || (!clause.name && named !== null && named.length > 0 && named.every((e) => e.isTypeOnly));
      }
      out.push({ spec: st.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      const named = st.exportClause && ts.isNamedExports(st.exportClause) ? st.exportClause.elements : null;
      const typeOnly = st.isTypeOnly || (named !== null && named.length > 0 && named.every((e) => e.isTypeOnly));
      out.push({ spec: st.moduleSpecifier.text, typeOnly });
    } else if (ts.isImportEqualsDeclaration(st) && ts.isExternalModuleReference(st.moduleReference) && ts.isStringLiteral(st.moduleReference.expression)) {
      out.push({ spec: st.moduleReference.expression.text, typeOnly: st.isTypeOnly });
    }
  }
  return out;
}

const CANDIDATE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '/index.ts', '/index.tsx'];

function resolveFile(base) {
  const tries = [base];
  if (/\.(?:m?js|jsx)$/.test(base)) tries.push(base.replace(/\.m?js$/, (m) => (m === '.mjs' ? '.mts' : '.ts')).replace(/\.jsx$/, '.tsx'));
  for (const t of tries) {
    for (const suffix of CANDIDATE_SUFFIXES) {
      const p = t + suffix;
      if (existsSync(p) && statSync(p).isFile() && SOURCE_RE.test(p)) return p;
    }
  }
  return null;
}

/** The file a specifier names inside the repository, or null for node:/npm modules and non-TS files. */
function resolveSpec(spec, fromFile, packages) {
  if (spec.startsWith('.') || spec.startsWith('/')) return resolveFile(resolve(dirname(fromFile), spec));
  for (const [name, pkg] of packages) {
    if (spec !== name && !spec.startsWith(`${name}/`)) continue;
    const sub = spec === name ? '.' : `.${spec.slice(name.length)}`;
    const target = pkg.exports.get(sub);
    return target ? resolveFile(target) : resolveFile(join(pkg.dir, sub));
  }
  return null;
}

/** Tarjan's strongly connected components (iterative, so deep graphs cannot overflow the stack). */
function components(nodes, next) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [{ node: start, it: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const succ = next(frame.node);
      if (frame.it < succ.length) {
        const w = succ[frame.it++];
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, it: 0 });
        } else if (onStack.has(w)) low.set(frame.node, Math.min(low.get(frame.node), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent), low.get(frame.node)));
      }
      if (low.get(frame.node) === index.get(frame.node)) {
        const comp = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          comp.push(w);
        } while (w !== frame.node);
        out.push(comp);
      }
    }
  }
  return out;
}

/** The shortest cycle from `start` back to itself inside one component (BFS), as a node list. */
function shortestCycle(start, inComp, next) {
  const prev = new Map();
  const queue = [start];
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head];
    for (const w of next(node)) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(prev.get(path[0]));
        return path;
      }
      if (!prev.has(w)) {
        prev.set(w, node);
        queue.push(w);
      }
    }
  }
  return null;
}

/** Rotates a cycle to start at its smallest node, so the same loop found from two files compares equal. */
function canonicalCycle(cycle) {
  let min = 0;
  for (let i = 1; i < cycle.length; i++) if (cycle[i] < cycle[min]) min = i;
  return [...cycle.slice(min), ...cycle.slice(0, min)];
}

// Layering rules checked with the cycles (#18): files that only the listed importers may import.
// The engine facade wires the domain services; a domain module importing it back would tie every
// domain to all the others again (and make the next split a cycle), so domains take small
// interfaces (packages/engine/src/memories/ports.ts) instead. The adapters over the facade — the
// CLI, the MCP server, and the features composed of facade calls that the console, the plugin and the
// MCP server share (preview/: what the agent will see; search/: search filters) — may import it:
// the facade never imports them (the cycle check proves it), so they add no back-reference.
const ADAPTERS = ['cli/', 'mcp/', 'preview/', 'search/'];
export const FACADE_RULES = [
  {
    target: 'packages/engine/src/engine.ts',
    allowed: ['packages/engine/src/index.ts', 'packages/engine/src/api.ts', ...ADAPTERS.map((a) => `packages/engine/src/${a}`)],
    why: 'only index.ts/api.ts and the adapters over the facade (cli/, mcp/, preview/, search/) import the engine facade; a domain module takes an interface from memories/ports.ts',
  },
];

/** Imports that break a FACADE_RULES rule: { file, target, why }, type-only imports included. */
function facadeViolations(edges, rel) {
  const out = [];
  for (const [file, targets] of edges) {
    const from = rel(file);
    if (!from.startsWith('packages/engine/src/')) continue;
    for (const target of targets.keys()) {
      const to = rel(target);
      for (const rule of FACADE_RULES) {
        if (to !== rule.target || from === rule.target) continue;
        if (rule.allowed.some((a) => (a.endsWith('/') ? from.startsWith(a) : from === a))) continue;
        out.push({ file: from, target: to, why: rule.why });
      }
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

export function findCycles(root, { runtime = false } = {}) {
  const dirs = workspaceDirs(root);
  const packages = workspacePackages(dirs);
  const files = dirs.flatMap((d) => walk(d, [])).sort();
  const rel = (f) => relative(root, f).split(sep).join('/');
  const edges = new Map(); // file → Map(target → typeOnly)
  for (const file of files) {
    const targets = new Map();
    for (const { spec, typeOnly } of importsOf(file)) {
      const target = resolveSpec(spec, file, packages);
      if (!target) continue;
      // a file importing the same module as a value anywhere makes the edge a value edge
      targets.set(target, (targets.get(target) ?? true) && typeOnly);
    }
    edges.set(file, targets);
  }
  const next = (f) => [...(edges.get(f) ?? new Map())].filter(([, typeOnly]) => !(runtime && typeOnly)).map(([t]) => t).sort();
  const nodes = [...new Set([...files, ...[...edges.values()].flatMap((m) => [...m.keys()])])].sort();
  const cycles = [];
  for (const comp of components(nodes, next)) {
    const selfLoop = comp.length === 1 && next(comp[0]).includes(comp[0]);
    if (comp.length < 2 && !selfLoop) continue;
    const inComp = new Set(comp);
    const seen = new Set();
    const loops = [];
    for (const start of [...comp].sort()) {
      const cycle = shortestCycle(start, inComp, next);
      if (!cycle) continue;
      const canon = canonicalCycle(cycle.map(rel));
      const key = canon.join('\u0000');
      if (seen.has(key)) continue;
      seen.add(key);
      loops.push(canon);
    }
    loops.sort((a, b) => a.length - b.length || a.join().localeCompare(b.join()));
    const typeOnlyEdge = (a, b) => edges.get(resolve(root, a))?.get(resolve(root, b)) === true;
    cycles.push({
      files: comp.map(rel).sort(),
      loops: loops.map((loop) => loop.map((file, i) => ({ file, typeOnly: typeOnlyEdge(file, loop[(i + 1) % loop.length]) }))),
    });
  }
  cycles.sort((a, b) => a.files[0].localeCompare(b.files[0]));
  return { files: files.length, edges: [...edges.values()].reduce((n, m) => n + m.size, 0), cycles, facade: facadeViolations(edges, rel) };
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const started = performance.now();
  const result = findCycles(opts.root, opts);
  const ms = Math.round(performance.now() - started);
  if (opts.json) {
    console.log(JSON.stringify({ ...result, ms }, null, 2));
  } else {
    for (const v of result.facade) console.log(`forbidden import: ${v.file} -> ${v.target} (${v.why})`);
  }
  if (opts.json) {
    // printed above
  } else if (result.cycles.length === 0) {
    console.log(`no import cycles (${result.files} files, ${result.edges} internal imports${opts.runtime ? ', type-only imports ignored' : ''}, ${ms} ms)`);
  } else {
    console.log(`${result.cycles.length} import cycle${result.cycles.length === 1 ? '' : 's'} (${result.files} files, ${result.edges} internal imports, ${ms} ms):`);
    result.cycles.forEach((c, i) => {
      console.log(`\n${i + 1}) ${c.files.length} file${c.files.length === 1 ? '' : 's'}: ${c.files.join(', ')}`);
      for (const loop of c.loops) {
        const steps = loop.map((s) => `${s.file}${s.typeOnly ? ' -(type)->' : ' ->'}`).join(' ');
        console.log(`   ${steps} ${loop[0].file}`);
      }
    });
    console.log('\n(-(type)-> = only types cross that edge; --runtime ignores those)');
  }
  process.exit(result.cycles.length === 0 && result.facade.length === 0 ? 0 : 1);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
