// Settings truth, every setting (issue 29): the console's "needs restart" flag (settings/spec.ts)
// must say what a change does on a running plugin. The plugin is started through the simulator, the
// engine's config slot is instrumented (config-reads.ts), and:
//   1. one save gives the running plugin a new config; a workload that uses every feature (turns
//      in a workspace, Chinese and English, each kind of tool, a compaction, the HTTP routes, a
//      second session, both injection places) runs; a setting read from the new config is one
//      every use reads afresh: a change reaches the running plugin;
//   2. each setting not read that way is changed on its own; a setting the save itself applies
//      (the index pass, the semantic channel, the tokenizer, the BM25 index, the judge, all rebuilt
//      from the new config) is read, or rebuilt, during its save;
//   3. what is left was read only at start: exactly those must be marked "needs restart".
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Engine } from '@engram/engine';
import type { SemanticPort } from '../../../packages/engine/src/semantic/port.ts';
import type { WarmUp } from '../src/host/recall/warm-up.ts';
import { ALL_FIELDS, type FieldSpec } from '../../console/src/components/settings/spec.ts';
import { COMPACTION_RECHECK_PATH } from '../src/host/compaction/routes.ts';
import { CLIENT_CONFIG_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { fileTools } from './compaction-helpers.ts';
import { recordConfigReads } from './config-reads.ts';
import { loadPlugin } from './helpers.ts';

/** Features on, so the workload reaches their settings. */
const BASE = {
  runtime: { memories: [{ text: '回答一律用简体中文', critical: true }, { text: '用户叫小林', critical: false }] },
  workspace: { inject: 'index' },
  judge: { enabled: true, baseUrl: 'http://127.0.0.1:9/v1', model: 'judge', timeoutMs: 200 },
  compaction: { assist: { mode: 'model', provider: 'sim', model: 'sim' } },
};

const get = (o: unknown, path: string): unknown => path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], o);
const patchOf = (path: string, value: unknown): Record<string, unknown> => path.split('.').reduceRight<unknown>((v, k) => ({ [k]: v }), value) as Record<string, unknown>;

/** Another valid value for a setting (a folder made for the path settings). */
function changed(field: FieldSpec, current: unknown, root: string): unknown {
  const folder = (name: string) => {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  };
  const special: Record<string, () => unknown> = {
    diaryDir: () => folder('other-diaries'),
    legacyDir: () => folder('legacy'),
    'sessions.dshHome': () => folder('dsh-home'),
    'diary.runtimeFile': () => {
      const file = join(folder('runtime'), 'memories.json');
      writeFileSync(file, '["常驻文件里的一条"]');
      return file;
    },
    'diary.folder': () => '工作',
    'diary.archiveFolder': () => '旧的',
    'embedding.baseUrl': () => 'http://127.0.0.1:9/v2',
    'judge.baseUrl': () => 'http://127.0.0.1:9/v2',
    'inject.blockName': () => 'memory_recall',
    'inject.itemPrefix': () => '#{n} {date} {title}',
    'recall.userDict': () => ['东京节点 100 n'],
    'console.allowedOrigins': () => ['http://localhost:4000'],
    'console.allowedHosts': () => ['engram.local'],
    'tools.disabled': () => ['engram_wall'],
    'compaction.readTools': () => ['read', 'grep'],
    aliases: () => [['东京节点', '东京服务器']],
    'runtime.memories': () => [...((current as unknown[]) ?? []), { text: '新加的一条常驻', critical: false }],
    'recall.kMin': () => 2,
    'recall.kMax': () => 9,
    'chunk.overlap': () => 100,
  };
  if (special[field.path]) return special[field.path]!();
  switch (field.kind) {
    case 'bool':
      return !current;
    case 'number': {
      const step = field.step ?? (Number.isInteger(current) ? 1 : 0.05);
      const n = current as number;
      const up = Math.round((n + step) * 1000) / 1000;
      return field.max === undefined || up <= field.max ? up : Math.round((n - step) * 1000) / 1000;
    }
    case 'select':
      return field.options!.find((o) => o !== current);
    case 'lines':
      return ['changed'];
    case 'secret':
      return 'sk-changed-0000';
    default:
      return `${String(current ?? '')}改`;
  }
}

/**
 * A semantic channel that always runs (the settings of the semantic gates are read only when it
 * does; without it their reads would depend on whether a model happens to be installed): it finds
 * the chunks it was given, in order, against a fixed background.
 */
function standInModel(): SemanticPort {
  const chunks: string[] = [];
  return {
    status: () => ({ state: 'ready', reason: null, action: null, provider: 'local', fingerprint: null, vectors: chunks.length, dimensions: 4, degradedBatches: 0 }),
    sync: async (given) => {
      for (const c of given) if (!chunks.includes(c.id)) chunks.push(c.id);
      return { embedded: given.length, reused: 0, removed: 0, degradedBatches: [] };
    },
    search: async (_query, limit) => ({
      ran: true,
      ms: 1,
      hits: chunks.slice(0, Math.min(limit, 5)).map((chunkId, i) => ({ chunkId, score: 0.7 - i * 0.05, rank: i + 1 })),
      background: { mean: 0.3, std: 0.1, n: 100 },
    }),
    hasVector: (id) => chunks.includes(id),
    integrityCheck: async () => ({ checked: 0, minCos: 1, ok: true }),
    close: () => {},
  };
}

/** The saves' own rebuilds: things made from the new config that the slot does not see being read. */
function watchRebuilds(engine: Engine) {
  const state = (engine as unknown as { state: Record<string, any> }).state;
  const seen = new Set<string>();
  const openSemantic = state.openSemantic.bind(state);
  state.openSemantic = async () => {
    seen.add('semantic');
    return openSemantic();
  };
  const rebuildJudge = state.rebuildJudge.bind(state);
  state.rebuildJudge = (config: unknown) => {
    seen.add('judge');
    return rebuildJudge(config);
  };
  let tokenizer = state.tokenizer;
  let lexical = JSON.stringify(state.live.options);
  return {
    /** What was rebuilt since the last call. */
    take(): Set<string> {
      if (state.tokenizer !== tokenizer) seen.add('tokenizer');
      if (JSON.stringify(state.live.options) !== lexical) seen.add('lexical');
      tokenizer = state.tokenizer;
      lexical = JSON.stringify(state.live.options);
      const out = new Set(seen);
      seen.clear();
      return out;
    },
  };
}

/** Settings a rebuild applies: the semantic channel, the tokenizer, the BM25 index. */
const REBUILT_BY: [RegExp, string][] = [
  [/^embedding\./, 'semantic'],
  // Made again from the new config on every save (EngineState.rebuildJudge); its threshold and
  // route are read when it judges, which needs a reachable endpoint.
  [/^judge\./, 'judge'],
  [/^recall\.(tokenizer|userDict)$/, 'tokenizer'],
  [/^recall\.(bm25K1|bm25B|singleCharWeight|fieldWeights\.\w+)$/, 'lexical'],
];

/**
 * Read at use, by a part this workload cannot drive through the simulator: each with where it is
 * read. The test checks they stay unread here (once the workload reaches one, it leaves this list).
 */
const READ_ELSEWHERE: Record<string, string> = {
  'summaries.provider': 'notes/summary-worker.ts: summaryRoute(engine.config.summaries) on every drain, on the worker\'s own interval',
  'summaries.model': 'notes/summary-worker.ts: summaryRoute(engine.config.summaries) on every drain',
  'summaries.timeoutMs': 'engine summaries/queue.ts: settings() = config.summaries, per job',
  'summaries.maxChars': 'engine summaries/queue.ts: settings() = config.summaries, per job',
  'compaction.trash': 'the console\'s compaction-trash router, on every remove (the plugin removes no blocks)',
};

const EN_QUESTION = 'How did we handle the Tokyo node port last time?';

async function workload(loaded: Awaited<ReturnType<typeof loadPlugin>>, folder: string, base: string) {
  const { host, engine } = loaded;
  const session = host.createSession({ cwd: folder });
  const note = { content: '[09:00] 发布规矩\n\n> 发布前先在预发环境跑冒烟测试\n\n发布前先在预发环境跑冒烟测试,通过再上线,上线后观察十分钟。\n\nTag: 发布' };
  await session.userTurn('东京节点的 443 端口后来怎么处理的?', [
    { toolCalls: [{ name: 'engram_search', arguments: { query: '端口' } }, { name: 'engram_write', arguments: note }, { name: 'engram_index', arguments: {} }] },
    { toolCalls: [{ name: 'engram_status', arguments: {} }, { name: 'engram_brief', arguments: {} }, { name: 'engram_wall', arguments: {} }, { name: 'engram_notebook', arguments: {} }] },
    { toolCalls: [{ name: 'read', arguments: { path: 'config/tokyo.yaml' } }, { name: 'session_read', arguments: {} }, { name: 'history_read', arguments: { query: '端口' } }] },
    { text: '东京节点改用 8443 端口,重启了 sing-box。\n\n<<<DailyNoteStart>>>\ncommand: update\ntarget: 发布前先在预发环境跑冒烟测试,通过再上线\nreplace: 发布前先在预发环境跑冒烟测试,全部通过再上线\n<<<DailyNoteEnd>>>' },
  ]);
  const docs = await engine.list({});
  const doc = docs.find((d) => d.title === '发布规矩');
  if (doc) await host.tools!.call('engram_edit', JSON.stringify({ id: doc.docId, target: '上线后观察十分钟', replace: '上线后观察十五分钟' }), session);
  await session.userTurn(EN_QUESTION, [
    { toolCalls: [{ name: 'todo_write', arguments: { todos: [{ content: '查端口', status: 'completed' }, { content: '改配置', status: 'in_progress' }] } }] },
    // Written without a summary: the background queue summarises it through the host's model.
    { toolCalls: [{ name: 'engram_write', arguments: { content: '部署脚本放在 deploy 目录,先跑 check.sh 再跑 release.sh,失败时回滚到上一个标签。' } }] },
    { text: 'We moved it to 8443.' },
  ]);
  await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写。' }]);
  const kept = session.keptHistory();
  session.compact({
    summary: ['## 东京节点', '东京节点端口定为 8443。', 'The user insisted: every release 必须 be tagged before deploy, no exceptions.'].join('\n'),
    shadowedRange: { start: kept[0]!.seq, end: kept.at(-1)!.seq },
  });
  await session.userTurn('东京节点现在用哪个端口?', [{ text: '8443' }]);
  const token = ((await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string }).token;
  await fetch(`${base}${COMPACTION_RECHECK_PATH}`, { method: 'POST', body: JSON.stringify({ sessionId: session.id, query: '那个发布的规矩是什么' }), headers: { [TOKEN_HEADER]: token } }).then((r) => r.text());
  await session.userTurn('再确认一下东京节点端口', [{ text: '8443' }]);
  for (const [path, headers, method] of [
    ['/engram/status', {}, 'GET'],
    ['/engram/client-config', { origin: 'http://localhost:4000' }, 'GET'],
    ['/engram/console-start', { origin: base }, 'POST'],
  ] as const) {
    await fetch(`${base}${path}`, { method, headers }).then((r) => r.text()).catch(() => '');
  }
  const other = host.createSession({ cwd: folder });
  await other.userTurn('我们上次聊到哪了?', [{ text: '聊到东京节点。' }]);
  await host.settle();
}

test('every setting: "needs restart" is marked exactly on the settings a running plugin does not take up', async (t) => {
  const model = standInModel();
  let warmUp: WarmUp | undefined;
  const loaded = await loadPlugin(t, {
    config: BASE,
    host: { httpService: 'httpServer' },
    deps: { engineOptions: { semanticFactory: async () => model }, onWarmUp: (w) => (warmUp = w) },
  });
  const { host, engine, corpus } = loaded;
  // Recall is lexical until the warm-up is done: the full recall (and its settings) comes after.
  await warmUp!.done;
  await host.load(fileTools);
  const base = await host.listen();
  const folder = join(corpus.root, 'shop');
  mkdirSync(join(folder, 'src'), { recursive: true });
  writeFileSync(join(folder, 'package.json'), '{"name":"shop"}');
  const reads = recordConfigReads(engine);
  const rebuilds = watchRebuilds(engine);
  t.after(() => reads.stop());

  // 1. A new config in effect, then every feature used; the other injection places too.
  assert.equal((await engine.saveSettings({ sessions: { readMaxChars: 9000 } })).ok, true);
  await workload(loaded, folder, base);
  assert.equal((await engine.saveSettings({ runtime: { mode: 'message' }, inject: { mode: 'context' } })).ok, true);
  await workload(loaded, folder, base);
  const readInUse = new Set(reads.paths);
  assert.ok(readInUse.has('recall.hybridGate.enabled') && readInUse.has('recall.minSemantic'), 'the recalls ran with the semantic channel');
  rebuilds.take();

  // 2. Each setting not read in use, changed on its own.
  const fields = ALL_FIELDS.filter((f) => f.kind !== 'readonly');
  const appliedBySave = new Map<string, string>();
  const refused: string[] = [];
  for (const field of fields) {
    if (readInUse.has(field.path)) continue;
    const value = changed(field, get(engine.config, field.path), corpus.root);
    reads.clear();
    const saved = await engine.saveSettings(patchOf(field.path, value), { confirm: 'save-only', ...(field.path === 'diaryDir' ? { confirmDiaryDir: value as string } : {}) });
    if (!saved.ok) refused.push(`${field.path}=${JSON.stringify(value)}: ${JSON.stringify(saved)}`);
    const rebuilt = rebuilds.take();
    const by = REBUILT_BY.find(([re]) => re.test(field.path))?.[1];
    if (reads.paths.has(field.path)) appliedBySave.set(field.path, 'read by the save');
    else if (by && rebuilt.has(by)) appliedBySave.set(field.path, `${by} rebuilt`);
  }
  assert.deepEqual(refused, [], 'every change is a valid one');

  // 3. The flags against what the running plugin did.
  const wrong: string[] = [];
  for (const field of fields) {
    if (READ_ELSEWHERE[field.path]) {
      assert.ok(!readInUse.has(field.path) && !appliedBySave.has(field.path), `${field.path} is reached now: take it off READ_ELSEWHERE`);
      if (field.restart) wrong.push(`${field.path}: read at use (${READ_ELSEWHERE[field.path]}) but is marked restart-required`);
      continue;
    }
    const live = readInUse.has(field.path) || appliedBySave.has(field.path);
    if ((field.restart === true) !== !live) wrong.push(`${field.path}: ${live ? `applies live (${readInUse.has(field.path) ? 'read in use' : appliedBySave.get(field.path)})` : 'read only at start'} but is ${field.restart ? '' : 'not '}marked restart-required`);
  }
  assert.deepEqual(wrong, []);
});
