#!/usr/bin/env node
// Compiles the `engram` CLI (engine + db) into packages/engine/dist/cli/ with esbuild, so a command
// starts as plain JavaScript instead of type-stripping ~200 TypeScript files through tsx each time.
// Run by the root `prepare` script (npm install / npm ci) and by `npm run build:cli`.
//
//   dist/cli/main.cjs     the whole CLI in one CommonJS file. bin/engram.js compiles it with a V8 code
//                         cache (dist/cli/cache/, one per command, written by the command's first run):
//                         Node 20 has no code cache for ES modules, and compiling the ~1 MB a command
//                         loads was its largest single cost. The engine's modules are still evaluated
//                         only when a command imports them (esbuild wraps lazily imported modules), so
//                         `engram --version` loads neither the database client nor jieba.
//   dist/cli/lib-*.cjs    libraries only some commands use (the model runtime, undici), loaded when
//                         first imported, each with a code cache of its own.
//   dist/drizzle/         the database migrations (found by the db client as ../drizzle).
//   dist/cli/jieba-words.bin  the word index of jieba's dictionary (scripts/jieba-words.mjs): a
//                         one-shot command segments with the few words its text contains instead of
//                         building the whole dictionary (src/text/jieba-words.ts).
//   dist/cli/jieba-idf.bin   the background IDF table (scripts/jieba-idf.mjs): the words of jieba's
//                         idf.txt the engine keeps, looked up by binary search instead of parsing
//                         the 6 MB text in every `write` and `recall` (src/recall/background-idf.ts).
//   dist/cli/build.json   the source files the bundle was built from (mtime, sha1): bin/engram.js
//                         runs the source through tsx instead when one of them changed since.
//
// Native and heavy packages stay external and load from node_modules (their CommonJS entries) as
// they do under tsx.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIdfTable } from './jieba-idf.mjs';
import { buildWordIndex } from './jieba-words.mjs';

const engineDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(engineDir, '../..');
const dist = join(engineDir, 'dist');
const target = join(dist, 'cli');
// Built aside and swapped in, so a CLI starting meanwhile never loads half a bundle.
const staging = join(dist, `cli-${process.pid}`);

const EXTERNAL = ['@node-rs/jieba', 'onnxruntime-node', 'onnxruntime-common', 'esbuild', 'tsx'];

// The model runtime (@huggingface/transformers) is bundled as well, so a semantic recall compiles it
// from the code cache instead of 1.3 MB of source, and without sharp (scripts/sharp-stub.cjs). Its
// file finds itself (its own folder, and onnxruntime-node through a require from there) by its real
// location, as when it loads from node_modules. Only when the onnxruntime-node and -common it would
// load are the ones the CLI resolves; otherwise it stays external, as a runtime in the model cache does.
const engineRequire = createRequire(join(engineDir, 'package.json'));
function bundlesTransformers() {
  try {
    const own = createRequire(engineRequire.resolve('@huggingface/transformers'));
    return ['onnxruntime-node', 'onnxruntime-common'].every((p) => own.resolve(p) === engineRequire.resolve(p));
  } catch {
    return false;
  }
}
const withTransformers = bundlesTransformers();
if (!withTransformers) EXTERNAL.push('@huggingface/transformers');
const transformersPlugin = {
  name: 'engram-transformers',
  setup(b) {
    b.onResolve({ filter: /^sharp$/ }, (a) => (/[\\/]@huggingface[\\/]transformers[\\/]/.test(a.importer) ? { path: join(engineDir, 'scripts/sharp-stub.cjs') } : undefined));
    b.onLoad({ filter: /[\\/]@huggingface[\\/]transformers[\\/]dist[\\/][^\\/]+\.mjs$/ }, (a) => ({
      contents:
        "import { createRequire as __transformersRequire } from 'node:module';\nimport { pathToFileURL as __transformersUrlOf } from 'node:url';\n" +
        'const __transformersModuleUrl = (() => { try { return __transformersUrlOf(__transformersRequire(__engramModuleUrl).resolve("@huggingface/transformers")).href; } catch { return __engramModuleUrl; } })();\n' +
        readFileSync(a.path, 'utf8').replaceAll('import.meta.url', '__transformersModuleUrl'),
      loader: 'js',
    }));
  },
};

// The embedded database client (@libsql/client/sqlite3 and libsql's JavaScript) is bundled, so its
// code is in the code cache too; its native module, and the full client for remote URLs (http, ws),
// load from node_modules. libsql's loader gets scripts/libc-shim.cjs for @neon-rs/load and
// detect-libc (see there: the same native build chosen, without ~15 ms of probing on glibc).
// import() of a file named at run time (the model runtime in the model cache) goes through the
// launcher's import, handed to the bundle as __engramImport (bin/engram.js): the bundle runs as a
// script, which has no import() of its own, and require() does not load a file URL.
const runTimeImportPlugin = {
  name: 'engram-import-at-run-time',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]model[\\/]import-at-run-time\.ts$/ }, () => ({
      contents: 'export const importAtRunTime = (url) => __engramImport(url);',
      loader: 'js',
    }));
  },
};

const libsqlPlugin = {
  name: 'engram-libsql',
  setup(b) {
    b.onResolve({ filter: /^@libsql\/client$/ }, () => ({ path: '@libsql/client', external: true }));
    b.onResolve({ filter: /^@libsql\/[a-z0-9-]+-(gnu|musl|msvc|gnueabihf|musleabihf)$|^@libsql\/(darwin|win32|freebsd|android)-/ }, (a) => ({ path: a.path, external: true }));
    b.onResolve({ filter: /^(@neon-rs\/load|detect-libc)$/ }, (a) => (/[\\/]node_modules[\\/]libsql[\\/]/.test(a.importer) ? { path: join(engineDir, 'scripts/libc-shim.cjs') } : undefined));
  },
};

// Libraries only some commands use are built into files of their own (dist/cli/lib-<name>.cjs) that
// the bundle loads when it first imports them, through the launcher and with a code cache of their
// own: every command reads and keeps all of main.cjs, and these were 1.4 MB of it (undici: only with
// a proxy; the model runtime: only for a query vector).
const LIBS = { undici: 'undici', ...(withTransformers ? { transformers: '@huggingface/transformers' } : {}) };
const libsPlugin = {
  name: 'engram-libs',
  setup(b) {
    for (const [name, spec] of Object.entries(LIBS))
      b.onResolve({ filter: new RegExp(`^${spec.replace(/[/.]/g, '\\$&')}$`) }, () => ({ path: name, namespace: 'engram-lib' }));
    // A plain require() of main.cjs (a test's probe) has no launcher: the file itself, compiled as usual.
    b.onLoad({ filter: /.*/, namespace: 'engram-lib' }, (a) => ({
      contents: `module.exports = typeof __engramLoad === 'function' ? __engramLoad(${JSON.stringify(a.path)}) : require(__dirname + ${JSON.stringify(`/lib-${a.path}.cjs`)});`,
      loader: 'js',
    }));
  },
};

const t0 = performance.now();
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
// A build that fails leaves no half-built folder behind.
let swapped = false;
process.on('exit', () => {
  if (!swapped) rmSync(staging, { recursive: true, force: true });
});
const common = {
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // import() becomes require(): a script compiled with a code cache (vm.Script) has no loader for
  // import(), and every external package has a CommonJS entry. A lazily imported module stays lazy.
  supported: { 'dynamic-import': false },
  // The sources find their files (the migrations, jieba's tables) from their own URL: the bundle's.
  define: { 'import.meta.url': '__engramModuleUrl' },
  // Strict, as the ES modules it is built from are.
  banner: { js: "'use strict';\nconst __engramModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // Comments and indentation out, every character ASCII: the file is read and kept as a string of
  // one-byte characters (~2.3 MB) instead of two-byte ones (~6.4 MB of memory for 3.2 MB of text)
  // in every command. Names stay, so a stack still names its functions.
  minifyWhitespace: true,
  charset: 'ascii',
  external: EXTERNAL,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
};
const result = await build({
  ...common,
  entryPoints: [join(engineDir, 'src/cli/main.ts')],
  outfile: join(staging, 'main.cjs'),
  plugins: [libsqlPlugin, runTimeImportPlugin, transformersPlugin, libsPlugin],
});
for (const [name, spec] of Object.entries(LIBS)) {
  // The ES module entry (export *), as the sources' import() had it.
  const lib = await build({
    ...common,
    stdin: { contents: `export * from ${JSON.stringify(spec)};`, resolveDir: engineDir, loader: 'js' },
    outfile: join(staging, `lib-${name}.cjs`),
    plugins: [transformersPlugin],
  });
  Object.assign(result.metafile.inputs, lib.metafile.inputs);
  Object.assign(result.metafile.outputs, lib.metafile.outputs);
}

// A local model file's FileResponse gets headers of its own (scripts/file-headers.cjs) instead of
// the global Headers, whose first use loads node's fetch implementation (~19 ms of CPU per semantic
// recall). Only those two constructions: a download's headers stay real. Left as it is (a note) when
// another version of the library has no such lines.
if (withTransformers) {
  const file = join(staging, 'lib-transformers.cjs');
  const code = readFileSync(file, 'utf8');
  const uses = ['this.headers=new Headers;', 'response.headers=new Headers(this.headers);'];
  if (uses.every((u) => code.split(u).length === 2)) {
    const shim = readFileSync(join(engineDir, 'scripts/file-headers.cjs'), 'utf8');
    const patched = uses.reduce((c, u) => c.replace(u, u.replace('new Headers', 'new __EngramFileHeaders')), code);
    const firstLine = patched.indexOf('\n') + 1;
    writeFileSync(file, `${patched.slice(0, firstLine)}var __EngramFileHeaders=(function(){const module={exports:{}};${shim}\nreturn module.exports})();\n${patched.slice(firstLine)}`);
  } else if (!process.argv.includes('--quiet')) console.warn('engram CLI: the model runtime builds its file responses otherwise than expected; its own Headers stay');
}

// esbuild leaves regular expression literals as written (/[;；]/): their characters are escaped too,
// so the whole file is ASCII. \uXXXX per UTF-16 unit means the same in every literal left: a pattern
// without the u flag matches units, and one with it reads an escaped surrogate pair as one character.
// An identity escape (/\’s/, without the u flag) loses its backslash: \\u2019 would be a backslash.
const unit = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
for (const bundle of ['main.cjs', ...Object.keys(LIBS).map((name) => `lib-${name}.cjs`)].map((f) => join(staging, f)))
  writeFileSync(bundle, readFileSync(bundle, 'utf8').replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, c) => (slashes.length % 2 === 1 ? slashes.slice(1) : slashes) + unit(c)));

// Migrations next to the bundle: the db client looks for ../drizzle from its own file (dist/cli/).
const migrations = join(root, 'drizzle');
if (!existsSync(join(migrations, 'meta/_journal.json'))) throw new Error(`no drizzle migrations at ${migrations}`);
// Copied beside it and renamed into place: a build running beside this one (a command rebuilding a
// stale CLI while another does) removed the folder this one was filling (ENOTEMPTY).
const drizzleStaging = join(dist, `drizzle-${process.pid}`);
const drizzleOld = join(dist, `drizzle-old-${process.pid}`);
process.on('exit', () => {
  for (const dir of [drizzleStaging, drizzleOld]) rmSync(dir, { recursive: true, force: true });
});
cpSync(migrations, drizzleStaging, { recursive: true });
try {
  renameSync(join(dist, 'drizzle'), drizzleOld);
} catch (e) {
  if (e.code !== 'ENOENT') throw e;
}
try {
  renameSync(drizzleStaging, join(dist, 'drizzle'));
} catch (e) {
  // Another build put its copy (the same migrations) in place between the two renames.
  if (e.code !== 'ENOTEMPTY' && e.code !== 'EEXIST') throw e;
}

// Without jieba installed the CLI still works (1-/2-grams); the word index is then simply absent.
try {
  const dictPath = join(dirname(createRequire(join(engineDir, 'package.json')).resolve('@node-rs/jieba/package.json')), 'dict.txt');
  writeFileSync(join(staging, 'jieba-words.bin'), buildWordIndex(readFileSync(dictPath), { dictMtimeMs: statSync(dictPath).mtimeMs }));
} catch (e) {
  if (!process.argv.includes('--quiet')) console.warn(`engram CLI: no jieba word index (${e.message}); commands build the whole dictionary`);
}
try {
  const idfPath = join(dirname(createRequire(join(engineDir, 'package.json')).resolve('@node-rs/jieba/package.json')), 'idf.txt');
  // KEEP_BELOW of src/recall/background-idf.ts: the reader refuses a table kept with another one.
  const keepBelow = Number(/^const KEEP_BELOW = (\d+(?:\.\d+)?);$/m.exec(readFileSync(join(engineDir, 'src/recall/background-idf.ts'), 'utf8'))?.[1]);
  if (!Number.isFinite(keepBelow)) throw new Error('KEEP_BELOW not found in src/recall/background-idf.ts');
  writeFileSync(join(staging, 'jieba-idf.bin'), buildIdfTable(readFileSync(idfPath), { keepBelow, idfMtimeMs: statSync(idfPath).mtimeMs }));
} catch (e) {
  if (!process.argv.includes('--quiet')) console.warn(`engram CLI: no background IDF table (${e.message}); commands parse jieba's idf.txt`);
}

const sources = Object.keys(result.metafile.inputs)
  .filter((p) => !p.includes('node_modules') && p !== '<stdin>' && !p.startsWith('engram-lib:'))
  .map((p) => resolve(root, p))
  .sort();
const version = JSON.parse(readFileSync(join(engineDir, 'package.json'), 'utf8')).version;
writeFileSync(
  join(staging, 'build.json'),
  `${JSON.stringify({ version, builtAt: new Date().toISOString(), sources: sources.map((file) => ({ file: relative(engineDir, file), mtimeMs: statSync(file).mtimeMs, sha1: createHash('sha1').update(readFileSync(file)).digest('hex') })) }, null, 1)}\n`,
);

const old = join(dist, `cli-old-${process.pid}`);
try {
  renameSync(target, old);
} catch (e) {
  if (e.code !== 'ENOENT') throw e;
}
renameSync(staging, target);
swapped = true;
rmSync(old, { recursive: true, force: true });

const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
if (!process.argv.includes('--quiet'))
  console.log(`engram CLI compiled to ${relative(root, target)}/ (${(bytes / 1024).toFixed(0)} KiB, ${sources.length} sources, ${Math.round(performance.now() - t0)} ms)`);
