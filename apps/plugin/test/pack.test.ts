// `npm run pack:plugin` builds an installable bundle. This runs the real pack script, then checks
// what a host would see: package.json fields, the patch file, a host entry that loads in Node and
// works in the simulated host against its own bundled engine and migrations, and a client entry in
// the module-loader shape that registers the tab (or the fallback) and renders the console iframe.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { createHost, HOST_SLOTS, loadClientBundle } from '@engram/dsh-sim';
import { byData, createMiniReact, findAll, settle, textOf, type Element } from './mini-react.ts';
import { makeCorpus, NO_MODEL_INSTALL, recallMessages } from './helpers.ts';

const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'apps/plugin/bundle');

before(() => {
  const run = spawnSync('npm', ['run', '--silent', 'pack:plugin'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `pack:plugin failed:\n${run.stdout}\n${run.stderr}`);
});

test('package.json: entries, dsh fields, runtime dependencies only', () => {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8'));
  const source = JSON.parse(readFileSync(join(root, 'apps/plugin/package.json'), 'utf8'));
  assert.equal(pkg.name, source.name);
  assert.equal(pkg.version, source.version);
  assert.ok(existsSync(join(bundle, pkg.main)));
  assert.equal(pkg.exports['.'], pkg.main);
  assert.ok(existsSync(join(bundle, pkg.exports['./client'])));
  assert.equal(pkg.exports['./package.json'], './package.json');
  assert.equal(pkg.dsh.bundle.patch, './cordis.patch.yml');
  assert.equal(pkg.dsh.client.platform, 'web');
  assert.deepEqual(pkg.dsh.client.inject, ['slots'], 'an array; optional services are feature-detected');
  assert.equal(pkg.devDependencies, undefined);
  for (const dep of ['@libsql/client', '@node-rs/jieba']) assert.match(pkg.dependencies[dep], /^\d+\.\d+\.\d+/, dep);
  assert.equal(pkg.optionalDependencies, undefined, 'local embeddings install separately (engram model install)');
  assert.ok(!('@engram/engine' in pkg.dependencies), 'the engine is bundled, not a dependency');
});

test('package.json describes the plugin Chinese-first (pnpm list --long prints it; the host reads no other description)', () => {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8'));
  assert.equal(typeof pkg.description, 'string');
  assert.match(pkg.description, /^(Engram )?[\u4e00-\u9fff]/, 'the reader is Chinese-first (after the product name)');
  assert.match(pkg.description, /Engram/);
  assert.doesNotMatch(pkg.description, /\n/, 'one line in the listing');
});

test('cordis.patch.yml inserts the row under the package name; migrations are next to lib/', () => {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8'));
  const patch = readFileSync(join(bundle, 'cordis.patch.yml'), 'utf8');
  assert.match(patch, /^- insert:/m);
  assert.match(patch, /id: engram/);
  assert.ok(patch.includes(`name: '${pkg.name}'`));
  assert.ok(existsSync(join(bundle, 'drizzle/meta/_journal.json')));
  assert.ok(existsSync(join(bundle, 'README.md')));
});

test('the host entry loads in Node, exports name/inject/apply, and works in the host with its bundled engine', async (t) => {
  const mod = await import(pathToFileURL(join(bundle, 'lib/host.mjs')).href);
  assert.equal(mod.name, 'engram');
  assert.equal(typeof mod.apply, 'function');
  assert.deepEqual(mod.inject, ['systemPrompt']);
  assert.deepEqual(Object.keys(mod).sort(), ['apply', 'inject', 'name']);

  const corpus = makeCorpus();
  const host = createHost();
  t.after(async () => {
    await host.close();
    corpus.cleanup();
  });
  await host.load(mod, { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, tools: { profile: 'full' }, ...NO_MODEL_INSTALL });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: 'ok' }]);
  assert.match(recallMessages(turn.requests[0]!)[0]!.content, /周报每周五下午写/);
  assert.match(turn.events.find((e) => e.type === 'tool/result')!.data.message.content[0].text, /日记 12 篇/);
  await host.settle();
  host.assertClean();
});

interface LoadedClient {
  exports: Record<string, unknown>;
  mini: ReturnType<typeof createMiniReact>;
  requests: { url: string; init?: { method?: string; headers?: Record<string, string> } }[];
  /** The console pane as the host would mount it (tab body where there is one, else the settings section). */
  pane: () => unknown;
  tabs: Record<string, unknown>[];
}

/** Runs the packed client file as the host's web UI does (see @engram/dsh-sim loadClientBundle). */
function loadClient(config: Record<string, unknown>, protocol = 'http:', withTabs = false): LoadedClient {
  const mini = createMiniReact();
  const requests: LoadedClient['requests'] = [];
  const tabs: Record<string, unknown>[] = [];
  const fetch = async (url: string, init?: LoadedClient['requests'][number]['init']) => {
    requests.push({ url, ...(init ? { init } : {}) });
    const body = init?.method === 'POST' ? { ok: true, state: 'started' } : config;
    return { ok: true, status: 200, json: async () => body };
  };
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8'));
  const loaded = loadClientBundle(readFileSync(join(bundle, 'lib/client.js'), 'utf8'), {
    id: pkg.name,
    modules: { react: mini.React },
    // Timers fire at once: the start button's wait for the console takes no wall time here.
    globals: { fetch, location: { protocol }, setTimeout: (fn: () => void) => setImmediate(fn) },
    ...(withTabs ? { services: { sidebarRightTabs: { register: (tab: Record<string, unknown>) => (tabs.push(tab), () => {}) } }, slots: { ...HOST_SLOTS, 'sidebar.right.pane.tab': 'keyed' as const } } : {}),
  });
  assert.equal(loaded.status, 'active');
  const entry = loaded.slots.of(withTabs ? 'sidebar.right.pane.tab' : 'settings.section')[0]!;
  return { exports: loaded.exports, mini, requests, pane: entry.component as () => unknown, tabs };
}

const CONFIG = { consoleUrl: 'http://127.0.0.1:3000', proxyPath: '/engram/console/', startPath: '/engram/console-start', tokenHeader: 'x-engram-token', token: 't'.repeat(40), reachable: true };


test('the client entry exports only name, inject and apply', () => {
  const { exports } = loadClient(CONFIG);
  assert.deepEqual(Object.keys(exports).sort(), ['apply', 'inject', 'name']);
  assert.equal('default' in exports, false);
  assert.equal(exports.name, 'engram');
  // Values from the loader's context: compare by content, not by prototype.
  assert.deepEqual(JSON.parse(JSON.stringify(exports.inject)), ['slots']);
});

test('with sidebarRightTabs: a tab and its body under the same key; the body renders the console iframe', async () => {
  const { mini, requests, pane, tabs } = loadClient(CONFIG, 'http:', true);
  assert.equal(tabs.length, 1);
  assert.equal(tabs[0]!.priority, 'extension');
  assert.equal(tabs[0]!.kind, tabs[0]!.id);

  const tree = await settle(mini, pane);
  assert.equal(requests[0]!.url, '/engram/client-config');
  const frame = findAll(tree, byData('frame'))[0]!;
  assert.equal(frame.type, 'iframe');
  assert.equal(frame.props.src, 'http://127.0.0.1:3000/');
  assert.match(textOf(findAll(tree, byData('source'))[0]), /直连 http:\/\/127\.0\.0\.1:3000/);
  // Switching to the host proxy says so and changes the iframe.
  (findAll(tree, byData('switch'))[0]!.props.onClick as () => void)();
  const switched = mini.render(pane);
  assert.equal(findAll(switched, byData('frame'))[0]!.props.src, '/engram/console/');
  assert.match(textOf(findAll(switched, byData('source'))[0]), /经宿主代理/);
  assert.equal(findAll(switched, byData('start')).length, 0, 'no start button while the console runs');
});

test('on an https page the console goes through the host proxy; a stopped console gets a start button that sends the token', async () => {
  const { mini, requests, pane } = loadClient({ ...CONFIG, reachable: false }, 'https:');
  const tree = await settle(mini, pane);
  assert.equal(findAll(tree, byData('frame'))[0]!.props.src, '/engram/console/');
  await (findAll(tree, byData('start'))[0]!.props.onClick as () => Promise<void>)();
  const post = requests.find((r) => r.init?.method === 'POST')!;
  assert.equal(post.url, '/engram/console-start');
  assert.equal(post.init!.headers!['x-engram-token'], CONFIG.token);
  // This stub console never comes up: after its wait the pane says so (the light view stays).
  assert.match(textOf(findAll(mini.render(pane), byData('note'))[0]), /没有回应/);
});

test('without sidebarRightTabs the body goes into a settings section (a list slot entry with an id)', async () => {
  const { mini, pane } = loadClient(CONFIG);
  const tree = await settle(mini, pane);
  assert.equal(findAll(tree, byData('frame'))[0]!.type, 'iframe');
});

test('the bundle ships the prebuilt jieba word index and background IDF table next to its host entry (else every start builds the whole dictionary)', async () => {
  const { readWordIndex } = await import('../../../packages/engine/src/text/jieba-words.ts');
  const { readIdfTable } = await import('../../../packages/engine/src/recall/background-idf.ts');
  const { createRequire } = await import('node:module');
  const { dirname } = await import('node:path');
  // The bundle installs the workspace's jieba version: its dictionary is the one the files must match.
  const jieba = dirname(createRequire(join(root, 'packages/engine/package.json')).resolve('@node-rs/jieba/package.json'));
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8'));
  const lib = join(bundle, pkg.main, '..');
  const words = readWordIndex(join(lib, 'jieba-words.bin'), join(jieba, 'dict.txt'));
  assert.ok(words.ok, words.ok ? '' : `jieba-words.bin: ${words.reason}`);
  const idf = readIdfTable(join(lib, 'jieba-idf.bin'), join(jieba, 'idf.txt'));
  assert.ok(idf.ok, idf.ok ? '' : `jieba-idf.bin: ${idf.reason}`);
  assert.ok(pkg.files.includes('lib'), 'lib/ (with both files) is what the package ships');
});

test('the bundle ships the embedding worker next to its host entry, where the bundled engine looks; it loads as a worker and embeds as the inline model does', async (t) => {
  const { WorkerEmbedder, workerEntry } = await import('../../../packages/engine/src/semantic/worker-embedder.ts');
  const { LocalEmbedder } = await import('../../../packages/engine/src/semantic/local-embedder.ts');
  const { EmbeddingFault } = await import('../../../packages/engine/src/semantic/embedding-fault.ts');
  const { cosine } = await import('../../../packages/engine/src/semantic/vector-index.ts');
  const { installedModel } = await import('../../../packages/engine/src/model/install.ts');
  const { buildTinyModel } = await import('../../../packages/engine/test/semantic/tiny-onnx.ts');
  const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8'));
  const lib = join(bundle, pkg.main, '..');
  const entry = workerEntry(lib);
  assert.equal(entry, join(lib, 'embed-worker.mjs'), 'the bundled engine finds the worker beside host.mjs');
  assert.match(readFileSync(join(lib, 'host.mjs'), 'utf8'), /WORKER_FILE = "embed-worker"/, 'the host entry looks for that name');

  const tmp = mkdtempSync(join(tmpdir(), 'engram-pack-worker-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  // The tiny test model through the bundled worker: the same vectors as the inline embedder.
  const tiny = buildTinyModel(join(tmp, 'tiny-bert'), { dims: 16 });
  const texts = ['记忆向量检索', 'coffee with milk 42', '今天天气晴朗'];
  const inline = await LocalEmbedder.load(tiny, { model: 'tiny-bert' });
  try {
    const a = await inline.embed(texts);
    for (const isolation of ['thread', 'process'] as const) {
      const worker = await WorkerEmbedder.load(tiny, { model: 'tiny-bert' }, { entry: entry as string, idleMs: 0, isolation });
      try {
        const b = await worker.embed(texts);
        for (let i = 0; i < texts.length; i++) assert.deepEqual([...(b[i] as Float32Array)], [...(a[i] as Float32Array)], isolation);
      } finally {
        await worker.dispose();
      }
    }
  } finally {
    await inline.dispose();
  }

  // A model the runtime cannot load: the bundled worker says so as 'unavailable', and this process carries on.
  const broken = buildTinyModel(join(tmp, 'broken'), { dims: 16 });
  writeFileSync(join(broken, 'onnx/model.onnx'), 'not an onnx file');
  await assert.rejects(WorkerEmbedder.load(broken, { model: 'broken' }, { entry: entry as string }), (e: unknown) => e instanceof EmbeddingFault && e.kind === 'unavailable' && /could not be loaded|could not embed/.test(e.message));

  // With the real model (ENGRAM_TEST_MODEL_DATA_DIR, as for the engine's real-model tests): the same batch, cosine ≥ 0.999.
  const real = installedModel(process.env.ENGRAM_TEST_MODEL_DATA_DIR ?? '');
  if (!real) return t.diagnostic('real model not compared: set ENGRAM_TEST_MODEL_DATA_DIR');
  const batch = ['东京节点改用八四四三端口，防火墙规则已经更新。', '周报每周五下午写', 'the cat knocked the plant off the windowsill'];
  const bgeInline = await LocalEmbedder.load(real.dir, { model: 'bge-small-zh-v1.5', threads: 1 });
  const bgeWorker = await WorkerEmbedder.load(real.dir, { model: 'bge-small-zh-v1.5', threads: 1 }, { entry: entry as string, idleMs: 0, isolation: 'process' });
  try {
    const a = await bgeInline.embed(batch, { purpose: 'document' });
    const b = await bgeWorker.embed(batch, { purpose: 'document' });
    for (let i = 0; i < batch.length; i++) assert.ok(cosine(a[i] as Float32Array, b[i] as Float32Array) >= 0.999, batch[i]);
  } finally {
    await bgeInline.dispose();
    await bgeWorker.dispose();
  }
});

// The plugin opens the engine with model: { load: 'at-open', thread: 'worker', isolation: 'process' }
// (apps/plugin/src/host/apply.ts): red while it ran the model inline.
test('with a local model, the packed plugin loads the ONNX runtime in its worker, never in the host thread', async (t) => {
  const { buildTinyModel } = await import('../../../packages/engine/test/semantic/tiny-onnx.ts');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const tmp = mkdtempSync(join(tmpdir(), 'engram-pack-thread-'));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  const tiny = buildTinyModel(join(tmp, 'tiny-bert'), { dims: 16 });
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8'));
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'bundle-model-thread.fixture.ts'), join(bundle, pkg.main, '..'), tiny], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const seen = JSON.parse(run.stdout.trim().split('\n').pop() as string) as { modelLoaded: boolean; inHostThread: boolean };
  assert.equal(seen.modelLoaded, true, 'the model was loaded');
  assert.equal(seen.inHostThread, false, 'but not by the host thread');
});
