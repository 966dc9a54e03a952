// The host's memory with the packed plugin, in a plain Node process as a host runs it (no TypeScript
// loader: tsx transforming the 2.3 MB bundle alone adds ~240 MB, so the simulator's benches cannot
// say this). Each row is a fresh process: before the plugin's import, after it, once the index is
// open and the warm-up recall has run (the model loaded where there is one), and after a recall
// through the plugin's own search tool. The model runs in its own process (apply.ts): its memory
// is listed apart, read from /proc for the plugin's child processes.
// Run: npm run pack:plugin && node apps/plugin/scripts/bench-host-rss.mjs [starts]
//      or, on a store built beforehand (DIR/diaries + DIR/data): … bench-host-rss.mjs --store DIR [starts]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bundleEntry = fileURLToPath(new URL('../bundle/lib/host.mjs', import.meta.url));
const mb = (bytes) => bytes / 2 ** 20;
const rss = () => mb(process.memoryUsage().rss);

/** Resident memory of this process's children (the model's process), from /proc. */
function childrenRss() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      total += kb * 1024;
    } catch {
      // gone meanwhile
    }
  }
  return mb(total);
}

/** A host context with what the plugin registers through (the simulator's shapes, without the simulator). */
function bareHost(logs, tools) {
  const ctx = {
    on: () => () => {},
    effect: (execute) => {
      execute();
      return () => {};
    },
    inject: (deps, callback) => {
      if (deps.every((d) => d === 'tools' || d === 'httpServer')) callback(ctx);
      return () => {};
    },
    logger: Object.fromEntries(['info', 'warn', 'error', 'debug'].map((level) => [level, (m) => logs.push(String(m))])),
    systemPrompt: { section: () => () => {}, context: () => () => {} },
    tools: { register: (t) => (tools.set(t.name, t), () => {}) },
    httpServer: { register: () => () => {} },
  };
  return ctx;
}

async function until(logs, re) {
  while (!logs.some((l) => re.test(l))) await new Promise((resolve) => setTimeout(resolve, 10));
}

async function oneStart(root) {
  const before = rss();
  const mod = await import(bundleEntry);
  const imported = rss();
  const logs = [];
  const tools = new Map();
  process.env.DSH_HOME = join(root, 'dsh');
  const t0 = performance.now();
  await mod.apply(bareHost(logs, tools), { diaryDir: join(root, 'diaries'), dataDir: join(root, 'data'), model: { autoInstall: false } });
  await until(logs, /^warm-up:/);
  const openMs = performance.now() - t0;
  const warm = rss();
  const search = tools.get('engram') ?? tools.get('engram_search');
  let searchMs = 0;
  for (const q of ['数据库端口', '《战国无双3》是由哪两个公司合作开发的？', '东京节点']) {
    const t = performance.now();
    await search.execute(search.name === 'engram' ? { q } : { query: q }, {});
    searchMs = Math.max(searchMs, performance.now() - t);
  }
  const recalled = rss();
  const model = childrenRss();
  const warmUp = logs.find((l) => l.startsWith('warm-up:')) ?? '';
  const semantic = warmUp.includes('semantic ready');
  // The index opens before the model has embedded a new store: the warm-up then recalls lexically while the vectors fill in.
  const filling = warmUp.includes('vectors are still being filled in');
  return { before, imported, warm, recalled, model, semantic, filling, openMs, searchMs, peak: mb(process.resourceUsage().maxRSS * 1024) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

if (process.argv[2] === '--one') {
  console.log(JSON.stringify(await oneStart(process.argv[3])));
  process.exit(0); // the model's process and the watcher end with this one
} else if (process.argv[2] === '--store') {
  // A store built beforehand (DIR/diaries and DIR/data, e.g. 50,000 notes), lexical: the plugin's
  // open, its memory and its search tool's time at that size, each start a fresh process.
  const dir = process.argv[3];
  const starts = Number(process.argv[4] ?? 3);
  const rows = [];
  for (let i = 0; i < starts; i++) {
    const env = { ...process.env, ENGRAM_MODEL_AUTO_INSTALL: '0', ENGRAM_MODEL_CACHE: join(tmpdir(), 'engram-no-models') };
    const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--one', dir], { encoding: 'utf8', env });
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.status !== 0 || !line.startsWith('{')) throw new Error(`a start failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
    rows.push(JSON.parse(line));
  }
  const notes = readdirSync(join(dir, 'diaries'), { recursive: true }).filter((f) => String(f).endsWith('.txt')).length;
  const m = (k) => median(rows.map((x) => x[k]));
  console.log(`\n### The packed plugin on a store of ${notes.toLocaleString('en')} notes (plain Node ${process.version}, lexical, medians of ${starts} fresh processes)\n`);
  console.log('| load → index open and warm, ms | RSS warm, MB | slowest of 3 searches (search tool), ms | RSS after them, MB | peak RSS, MB |');
  console.log('|---:|---:|---:|---:|---:|');
  console.log(`| ${m('openMs').toFixed(0)} | ${m('warm').toFixed(0)} | ${m('searchMs').toFixed(0)} | ${m('recalled').toFixed(0)} | ${m('peak').toFixed(0)} |`);
  console.log(`\nLoad average at the end: ${loadavg()[0].toFixed(1)}.`);
} else {
  if (!existsSync(bundleEntry)) throw new Error('no packed plugin: run npm run pack:plugin first');
  const starts = Number(process.argv[2] ?? 5);
  const models = existsSync(join(homedir(), '.cache', 'engram', 'models')) ? ['none', 'cached'] : ['none'];
  const rows = Object.fromEntries(models.map((m) => [m, []]));
  for (let i = 0; i < starts; i++) {
    for (const model of models) {
      const root = mkdtempSync(join(tmpdir(), 'engram-bench-rss-'));
      const home = model === 'none' ? mkdtempSync(join(tmpdir(), 'engram-bench-home-')) : null;
      mkdirSync(join(root, 'diaries'));
      for (let n = 0; n < 15; n++) writeFileSync(join(root, 'diaries', `2026-11-${String(n + 1).padStart(2, '0')}-服务${n}.txt`), `[09:00] 服务${n} 的配置\n\n> 服务${n} 的数据库端口\n\n服务${n} 的本地数据库端口是 ${5400 + n},迁移用 drizzle-kit 生成。\n\nTag: 服务${n}, 端口\n`);
      const env = { ...process.env, ENGRAM_MODEL_AUTO_INSTALL: '0', ...(home ? { HOME: home } : {}) };
      delete env.ENGRAM_MODEL_CACHE;
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--one', root], { encoding: 'utf8', env });
      rmSync(root, { recursive: true, force: true });
      if (home) rmSync(home, { recursive: true, force: true });
      const line = run.stdout.trim().split('\n').at(-1) ?? '';
      if (run.status !== 0 || !line.startsWith('{')) throw new Error(`a start failed (exit ${run.status}):\n${run.stdout}\n${run.stderr}`);
      rows[model].push(JSON.parse(line));
    }
  }
  console.log(`\n### Host memory with the packed plugin (plain Node ${process.version}, 15 memories, medians of ${starts} fresh processes)\n`);
  console.log('| model in cache | recall | before the plugin, MB | after its import | index open, warm | after a recall | the model\'s process |');
  console.log('|---|---|---:|---:|---:|---:|---:|');
  for (const model of models) {
    const r = rows[model];
    const m = (k) => median(r.map((x) => x[k])).toFixed(0);
    console.log(`| ${model === 'none' ? 'no' : 'yes'} | ${r.every((x) => x.semantic) ? 'semantic' : r.some((x) => x.semantic) ? 'mixed' : r.every((x) => x.filling) ? 'lexical, vectors filling in' : 'lexical'} | ${m('before')} | ${m('imported')} | ${m('warm')} | ${m('recalled')} | ${model === 'none' ? '—' : m('model')} |`);
  }
  console.log(`\nLoad average at the end: ${loadavg()[0].toFixed(1)}.`);
}
