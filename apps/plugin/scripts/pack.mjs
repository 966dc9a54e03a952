#!/usr/bin/env node
// `npm run pack:plugin`: builds an installable DSH bundle in apps/plugin/bundle/.
//
//   lib/host.mjs       the host half with the engine bundled in (ESM, Node 20). Native and heavy
//                      packages stay external and are the bundle's dependencies.
//   lib/embed-worker.mjs
//                      the embedding worker's entry (the engine's src/semantic/embed-worker.ts): the
//                      local model is loaded and run in a worker thread started on this file, which
//                      the engine looks for next to its own (bundled) file, so the ONNX runtime never
//                      runs on the host's event loop (src/semantic/worker-embedder.ts).
//   lib/client.js      the client half, registering itself: the host serves exports['./client'] as it
//                      is and runs it as a classic script, so the CommonJS body is wrapped in
//                      window.__ModuleLoader__.load({ id: <package name>, factory: (require) => … })
//                      (host: packages/client/modules/src/client/system.ts). react comes through
//                      the factory's require.
//   lib/jieba-words.bin, lib/jieba-idf.bin
//                      jieba's word index and the background IDF table, prebuilt (the engine's
//                      scripts/jieba-words.mjs and jieba-idf.mjs, as for the compiled CLI): the engine
//                      looks for them next to its own file. Without them the first recall after every
//                      start builds the whole 349,000-word dictionary (~200-300 ms) and parses idf.txt.
//   drizzle/           database migrations, found by the db package as ../drizzle next to lib/.
//   cordis.patch.yml   inserts the plugin row; package.json carries the dsh fields.
//
// Install: dsh plugin --profile web add file:<path to apps/plugin/bundle>
import { build } from 'esbuild';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIdfTable } from '../../../packages/engine/scripts/jieba-idf.mjs';
import { buildWordIndex } from '../../../packages/engine/scripts/jieba-words.mjs';

const pluginDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(pluginDir, '../..');
const out = join(pluginDir, 'bundle');

/**
 * Loaded at run time from the bundle's own node_modules: the native addons. None of them (nor their
 * dependencies) has an install script: `dsh plugin add` installs with pnpm, whose default refuses
 * those (ERR_PNPM_IGNORED_BUILDS) and then never adds the bundle to the profile.
 */
const RUNTIME_DEPENDENCIES = ['@libsql/client', '@node-rs/jieba'];
/**
 * The local-embedding runtime is NOT a dependency (it is ~470 MB and brings install scripts:
 * onnxruntime-node, protobufjs). The engine imports it lazily, and `engram model install` puts it
 * under the data directory; without it, recall is lexical and the reason is logged.
 */
const LAZY_RUNTIME = ['@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-common', 'sharp'];
const EXTERNAL = [...RUNTIME_DEPENDENCIES, ...LAZY_RUNTIME, 'libsql'];
/** WORKER_FILE of the engine's src/semantic/worker-embedder.ts: the name the bundled engine looks for next to host.mjs. */
const EMBED_WORKER = 'embed-worker';
/** An array (cordis reads an object's keys as service names); optional services are feature-detected. */
const CLIENT_INJECT = ['slots'];

/** The version the workspace runs with (read from node_modules: some packages do not export ./package.json). */
function installedVersion(name) {
  for (const base of ['packages/db', 'packages/engine', '.']) {
    const file = join(root, base, 'node_modules', name, 'package.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')).version;
  }
  throw new Error(`${name} is not installed in the workspace`);
}

const source = JSON.parse(readFileSync(join(pluginDir, 'package.json'), 'utf8'));

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'lib'), { recursive: true });

/** The host entry and the model's worker: Node ESM with the same externals (the worker imports the runtime from the same places). */
const nodeEntry = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: EXTERNAL,
  // Bundled CommonJS dependencies call require(); ESM output has none unless we make one.
  banner: { js: "import { createRequire as __engramCreateRequire } from 'node:module';\nconst require = __engramCreateRequire(import.meta.url);" },
  legalComments: 'none',
  logLevel: 'warning',
};
await build({ ...nodeEntry, entryPoints: [join(pluginDir, 'src/index.ts')], outfile: join(out, 'lib/host.mjs') });
await build({ ...nodeEntry, entryPoints: [join(root, 'packages/engine/src/semantic/embed-worker.ts')], outfile: join(out, `lib/${EMBED_WORKER}.mjs`) });

await build({
  entryPoints: [join(pluginDir, 'src/client/index.ts')],
  outfile: join(out, 'lib/client.js'),
  bundle: true,
  platform: 'browser',
  format: 'cjs',
  target: 'es2020',
  external: ['react'],
  legalComments: 'none',
  logLevel: 'warning',
});

// The host runs the file as a classic script: it must register itself under the package name.
const clientFile = join(out, 'lib/client.js');
const commonJsBody = readFileSync(clientFile, 'utf8');
writeFileSync(
  clientFile,
  `// ${source.name} client half: registered with the host's module loader (react through require).\n` +
    `window.__ModuleLoader__.load({ id: ${JSON.stringify(source.name)}, factory: function (require) {\n` +
    `var module = { exports: {} }; var exports = module.exports;\n${commonJsBody}\nreturn module.exports;\n} });\n`,
);

// The prebuilt jieba files, built from the dictionary the bundle installs (the workspace's version).
const engineDir = join(root, 'packages/engine');
const jiebaDir = dirname(createRequire(join(engineDir, 'package.json')).resolve('@node-rs/jieba/package.json'));
const dictPath = join(jiebaDir, 'dict.txt');
writeFileSync(join(out, 'lib/jieba-words.bin'), buildWordIndex(readFileSync(dictPath), { dictMtimeMs: statSync(dictPath).mtimeMs }));
const idfPath = join(jiebaDir, 'idf.txt');
// KEEP_BELOW of the engine's src/recall/background-idf.ts: the reader refuses a table kept with another one.
const keepBelow = Number(/^const KEEP_BELOW = (\d+(?:\.\d+)?);$/m.exec(readFileSync(join(engineDir, 'src/recall/background-idf.ts'), 'utf8'))?.[1]);
if (!Number.isFinite(keepBelow)) throw new Error('KEEP_BELOW not found in packages/engine/src/recall/background-idf.ts');
writeFileSync(join(out, 'lib/jieba-idf.bin'), buildIdfTable(readFileSync(idfPath), { keepBelow, idfMtimeMs: statSync(idfPath).mtimeMs }));

const migrations = join(root, 'drizzle');
if (!existsSync(join(migrations, 'meta/_journal.json'))) throw new Error(`no drizzle migrations at ${migrations}`);
cpSync(migrations, join(out, 'drizzle'), { recursive: true });

const docs = join(root, 'docs/plugin.md');
if (existsSync(docs)) cpSync(docs, join(out, 'README.md'));

const pkg = {
  name: source.name,
  version: source.version,
  // `pnpm list --long` prints this line under the package (`dsh plugin list` is pnpm list; in the
  // host's hoisted profile pnpm 11.7.0 cannot find any package's details: docs/real-host.md).
  description: 'Engram 长期记忆:常驻记忆、按问题自动召回、记忆工具和记忆面板 / long-term diary memory for DSH agents',
  license: source.license ?? 'UNLICENSED',
  main: './lib/host.mjs',
  exports: { '.': './lib/host.mjs', './client': './lib/client.js', './package.json': './package.json' },
  files: ['lib', 'drizzle', 'cordis.patch.yml', 'README.md'],
  engines: { node: '>=20.10' },
  dependencies: Object.fromEntries(RUNTIME_DEPENDENCIES.map((name) => [name, installedVersion(name)])),
  dsh: {
    bundle: { patch: './cordis.patch.yml' },
    client: { platform: 'web', inject: CLIENT_INJECT },
  },
};
writeFileSync(join(out, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);

// The bundle's own row. A profile patch should carry only `id: engram` and `config` (a different
// `name` makes the host drop the whole row).
writeFileSync(
  join(out, 'cordis.patch.yml'),
  `# Engram plugin row, inserted when the bundle is installed. Override settings in your profile's
# cordis.patch.yml with the same id and only a config block, for example:
#   - id: engram
#     config: { diaryDir: /path/to/diaries }
- insert:
    - id: engram
      name: '${pkg.name}'
      config:
        # Writable diary folder ('' = $ENGRAM_DIARY_DIR or <dataDir>/diaries)
        diaryDir: ''
        # Index, database and console token ('' = $ENGRAM_DATA_DIR or ~/.engram)
        dataDir: ''
        runtime:
          mode: section      # resident memories: section (system prompt) | message
        inject:
          mode: message      # recall: message (default) | context
        console:
          url: ''            # '' = http://127.0.0.1:3000
          command: ''        # how to start the console, e.g. node /path/to/engram/apps/console/scripts/start.mjs
          autoStart: false
          allowedOrigins: [] # the DSH page's origin (e.g. http://127.0.0.1:5173), so it may frame the console
          basePath: ''       # /engram/console = serve the console through the host (proxy mode)
`,
);

const size = (file) => `${(statSync(join(out, file)).size / 1024).toFixed(0)} KiB`;
console.log(`bundle written to ${relative(root, out)}/: lib/host.mjs ${size('lib/host.mjs')}, lib/${EMBED_WORKER}.mjs ${size(`lib/${EMBED_WORKER}.mjs`)}, lib/client.js ${size('lib/client.js')}`);
