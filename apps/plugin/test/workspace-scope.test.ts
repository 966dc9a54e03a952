// Workspaces through the simulated host: a session works in its cwd's workspace (+ global), never
// sees another workspace's memories (automatic recall or any tool), writes carry its workspace and
// session, a renamed folder keeps its memories, an ambiguous one asks, and the person's answer
// reaches a session that is still running.
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { WorkspaceRegistry } from '@engram/engine';
import type { SimSession } from '@engram/dsh-sim';
import { loadPlugin, recallMessages } from './helpers.ts';

/** A project folder with a git remote (strong identity) and a few top-level entries. */
function project(root: string, name: string, remote: string | null): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'README.md'), `# ${name}\n`);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name }));
  if (remote) {
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config'), `[core]\n\tbare = false\n[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`);
  }
  return dir;
}

const ALPHA_TITLE = '阿尔法项目的灰度机房';
const ALPHA_MEMORY = `[10:00] ${ALPHA_TITLE}\n\n> 阿尔法项目灰度发布走杭州七号楼机房\n\n阿尔法项目的灰度发布走杭州七号楼机房,端口 7443,回滚脚本在 ops/rollback.sh。\n\nTag: 阿尔法, 灰度`;
const BETA_TITLE = '贝塔项目的缓存目录';
const BETA_BLOCK = `好的,记下了。\n\n<<<DailyNoteStart>>>\ncommand: create\ntitle: ${BETA_TITLE}\n\n[11:00] ${BETA_TITLE}\n\n> 贝塔项目的构建缓存放在 .turbo 目录\n\n贝塔项目的构建缓存放在 .turbo 目录,清缓存要先停掉 watch 进程。\n\nTag: 贝塔, 缓存\n<<<DailyNoteEnd>>>`;

interface ToolCaller {
  call(name: string, json: string, target?: unknown): Promise<{ text: string; value?: unknown; error?: unknown }>;
}

const docIdsOf = (value: unknown): string[] => {
  const v = value as { hits?: { docId: string }[]; items?: { docId: string }[] };
  return (v.hits ?? v.items ?? []).map((x) => x.docId);
};

async function writeInTurn(session: SimSession, args: Record<string, unknown>) {
  const turn = await session.userTurn('把这个记下来', [{ toolCalls: [{ name: 'engram_write', arguments: args }] }, { text: '已记下' }]);
  const call = turn.events.find((e) => e.type === 'tool/call')!;
  const result = turn.events.find((e) => e.type === 'tool/result')!;
  return { turn, call, result };
}

test('two sessions in different folders never see each other\'s memories: automatic recall and every tool', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t);
  const tools = host.tools! as unknown as ToolCaller;
  const alphaDir = project(corpus.root, 'alpha', 'git@github.com:me/alpha.git');
  const betaDir = project(corpus.root, 'beta', 'git@github.com:me/beta.git');
  const alpha = host.createSession({ cwd: alphaDir });
  const beta = host.createSession({ cwd: betaDir });

  // Alpha writes through a real tool call: the host hands the arguments over as a JSON string.
  const { call } = await writeInTurn(alpha, { content: ALPHA_MEMORY });
  assert.equal(typeof call.data.arguments, 'string', 'tool/call arguments are a raw JSON string');
  assert.deepEqual(JSON.parse(call.data.arguments), { content: ALPHA_MEMORY });
  // Beta writes through a semantic block in its reply.
  await beta.userTurn('记一下缓存目录', [{ text: BETA_BLOCK }]);
  await host.settle();

  const registry = new WorkspaceRegistry(engine);
  const alphaWs = (await registry.lookup(alphaDir))!;
  const betaWs = (await registry.lookup(betaDir))!;
  assert.ok(alphaWs && betaWs && alphaWs.id !== betaWs.id);
  const all = await engine.list();
  const alphaDoc = all.find((m) => m.title === ALPHA_TITLE)!;
  const betaDoc = all.find((m) => m.title === BETA_TITLE)!;
  assert.ok(alphaDoc && betaDoc, 'both memories were written');
  assert.equal(alphaDoc.workspace, alphaWs.id);
  assert.equal(alphaDoc.sessionId, alpha.header.id);
  assert.equal(alphaDoc.origin, 'agent');
  assert.equal(betaDoc.workspace, betaWs.id);
  assert.equal(betaDoc.sessionId, beta.header.id);
  assert.match(readFileSync(join(corpus.diaryDir, alphaDoc.path), 'utf8'), new RegExp(`Meta: ws=${alphaWs.id}; session=${alpha.header.id}; origin=agent`));

  // Automatic recall: the same question finds alpha's memory in alpha (so the check can fail) and not in beta.
  const question = '阿尔法项目灰度发布走哪个机房?杭州七号楼吗';
  const inAlpha = await alpha.userTurn(question, [{ text: 'ok' }]);
  const inBeta = await beta.userTurn(question, [{ text: 'ok' }]);
  assert.ok(recallMessages(inAlpha.requests[0]!).some((m) => m.content.includes(ALPHA_TITLE)), 'alpha recalls its own memory');
  for (const r of inBeta.requests) for (const m of r.messages) assert.ok(!m.content.includes(ALPHA_TITLE) || m.source?.kind === 'user', 'beta saw alpha\'s memory');
  const betaQuestion = await alpha.userTurn('贝塔项目的构建缓存放在哪个目录?.turbo 吗', [{ text: 'ok' }]);
  for (const m of betaQuestion.requests[0]!.messages) assert.ok(m.source?.kind === 'user' || !m.content.includes(BETA_TITLE), 'alpha saw beta\'s memory');

  // Every tool, called from beta's session: alpha's memory is invisible, even by its exact id.
  const fromBeta = async (name: string, args: Record<string, unknown>) => tools.call(name, JSON.stringify(args), beta);
  for (const [name, args] of [
    ['engram_search', { query: question }],
    ['engram_list', { limit: 200 }],
    ['engram_index', { pageSize: 50 }],
  ] as const) {
    const outcome = await fromBeta(name, args);
    assert.equal(outcome.error, undefined, outcome.text);
    assert.ok(!docIdsOf(outcome.value).includes(alphaDoc.docId), `${name} from beta listed alpha's memory`);
    assert.ok(!outcome.text.includes(ALPHA_TITLE), `${name} from beta showed alpha's title`);
  }
  for (const [name, args] of [
    ['engram_read', { id: alphaDoc.docId }],
    ['engram_locate', { id: alphaDoc.docId, query: '机房' }],
    ['engram_detail', { id: alphaDoc.docId }],
    ['engram_detail', { id: alphaDoc.path }],
    ['engram_edit', { id: alphaDoc.docId, target: '回滚脚本在 ops/rollback.sh', replace: '被别的工作区改了' }],
    ['engram_forget', { id: alphaDoc.docId }],
    ['engram_write', { content: '[12:00] 取代阿尔法\n\n> 试图取代别人的记忆\n\n正文。', supersedes: alphaDoc.docId }],
  ] as const) {
    const outcome = await fromBeta(name, args);
    assert.ok(outcome.error, `${name} from beta should fail`);
    assert.match(outcome.text, /\[not-found\]/, `${name}: ${outcome.text}`);
  }
  assert.match(readFileSync(join(corpus.diaryDir, alphaDoc.path), 'utf8'), /回滚脚本在 ops\/rollback\.sh/, 'the file was not changed');
  assert.ok(!(await engine.list()).some((m) => m.title === '取代阿尔法'), 'a write refused for its supersedes wrote nothing');

  // From alpha the same calls work, and global memories are visible to both, marked 〔global〕.
  const own = await tools.call('engram_detail', JSON.stringify({ id: alphaDoc.docId }), alpha);
  assert.equal(own.error, undefined, own.text);
  const search = await tools.call('engram_search', JSON.stringify({ query: '东京节点的端口' }), beta);
  assert.match(search.text, /东京节点端口处置〔global〕 \(docId: [0-9a-f]+\)/);
  const ownHit = await tools.call('engram_search', JSON.stringify({ query: question }), alpha);
  assert.match(ownHit.text, new RegExp(`${ALPHA_TITLE}(〔s:[^〕]+〕)? \\(docId: ${alphaDoc.docId}\\)\\n阿尔法项目灰度发布走杭州七号楼机房`), 'own memories carry no scope mark (only their provenance); the summary is shown, not the body');
  assert.doesNotMatch(ownHit.text, /回滚脚本在 ops/, 'search returns summaries, not text');

  // A call without a session (no exec.agent) is unscoped.
  const unscoped = await tools.call('engram_list', JSON.stringify({ limit: 200 }));
  assert.ok(docIdsOf(unscoped.value).includes(alphaDoc.docId) && docIdsOf(unscoped.value).includes(betaDoc.docId));

  await host.settle();
  host.assertClean();
});

test('engram_write: scope global is seen everywhere; pinned leads the index; supersedes is recorded', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t);
  const tools = host.tools! as unknown as ToolCaller;
  const a = host.createSession({ cwd: project(corpus.root, 'a', 'git@github.com:me/a.git') });
  const b = host.createSession({ cwd: project(corpus.root, 'b', 'git@github.com:me/b.git') });
  const write = async (session: SimSession, args: Record<string, unknown>) => {
    const out = await tools.call('engram_write', JSON.stringify(args), session);
    assert.equal(out.error, undefined, out.text);
    return out.value as { docId: string; workspace: string };
  };
  const shared = await write(a, { content: '[09:00] 个人偏好:提交信息用中文\n\n> 所有项目的提交信息都用中文写\n\n所有项目的提交信息都用中文写。', scope: 'global' });
  assert.equal(shared.workspace, 'global');
  const old = await write(a, { content: '[09:10] 本项目的测试命令\n\n> 测试用 npm test\n\n测试用 npm test。' });
  const pinned = await write(a, { content: '[09:20] 本项目的发布清单\n\n> 发布前先跑冒烟测试\n\n发布前先跑冒烟测试。', pinned: true });
  const replacement = await write(a, { content: '[09:30] 迁移到 node:test 之后的跑法\n\n> 单测改由 node --import tsx --test 运行\n\n单测改由 node --import tsx --test 运行,CI 里同样如此,jest 配置已删除。', supersedes: old.docId });

  const listB = await tools.call('engram_list', JSON.stringify({ limit: 200 }), b);
  assert.ok(docIdsOf(listB.value).includes(shared.docId), 'global memory seen from another workspace');
  assert.ok(!docIdsOf(listB.value).includes(old.docId));

  const index = await tools.call('engram_index', JSON.stringify({ pageSize: 3 }), a);
  const v = index.value as { items: { docId: string; pinned: boolean; scope: string }[]; total: number; pages: number };
  assert.equal(v.items[0]!.docId, pinned.docId, 'pinned first');
  assert.ok(v.total >= 16 && v.pages >= 6, JSON.stringify({ total: v.total, pages: v.pages }));
  assert.match(index.text, /本项目的发布清单〔置顶〕 \(docId/);
  assert.match(index.text, /下一页:engram_index\(\{ page: 2 \}\)/);
  const page2 = await tools.call('engram_index', JSON.stringify({ page: 2, pageSize: 3 }), a);
  assert.equal((page2.value as { page: number }).page, 2);
  assert.ok(!docIdsOf(page2.value).some((id) => docIdsOf(index.value).includes(id)), 'pages do not overlap');
  const tagged = await tools.call('engram_index', JSON.stringify({ tag: '周报写作流程' }), a);
  assert.deepEqual((tagged.value as { items: { title: string }[] }).items.map((m) => m.title), ['周报写作流程']);
  assert.match(tagged.text, /〔global〕/);

  const newer = (await engine.list()).find((m) => m.docId === replacement.docId)!;
  const older = (await engine.list()).find((m) => m.docId === old.docId)!;
  assert.equal(older.supersededBy, newer.docId);
  assert.match(readFileSync(join(corpus.diaryDir, newer.path), 'utf8'), new RegExp(`supersedes=${old.docId}`));
  const badScope = await tools.call('engram_write', JSON.stringify({ content: '[10:00] x\n\n> y\n\nz', scope: 'everywhere' }), a);
  assert.match(badScope.text, /\[invalid-arguments\]/);
});

test('a renamed folder (old path gone, same git remote) keeps its id: memories follow', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const tools = host.tools! as unknown as ToolCaller;
  const dir = project(corpus.root, 'gamma', 'https://github.com/me/gamma.git');
  const before = host.createSession({ cwd: dir });
  const written = (await tools.call('engram_write', JSON.stringify({ content: '[09:00] 伽马项目的数据库端口\n\n> 伽马用 6543 端口\n\n伽马项目的数据库走 6543 端口。' }), before)).value as { docId: string; workspace: string };
  const moved = join(corpus.root, 'gamma-renamed');
  renameSync(dir, moved);
  const after = host.createSession({ cwd: moved });
  const index = await tools.call('engram_index', JSON.stringify({ pageSize: 50 }), after);
  assert.ok(docIdsOf(index.value).includes(written.docId), 'the renamed folder sees its memories');
  assert.equal((index.value as { workspace: string }).workspace, written.workspace, 'same workspace id');
  assert.ok(host.logs.some((l) => /workspace session=.*: ws-[0-9a-f]{8} "gamma-renamed" .* claim \(moved from .*gamma\)/.test(l.message)), 'the claim is logged');
});

test('an ambiguous folder asks: a fresh id and a pending claim; accepting in the console reaches the running session', async (t) => {
  const { host, engine, corpus } = await loadPlugin(t);
  const tools = host.tools! as unknown as ToolCaller;
  const dir = project(corpus.root, 'delta', 'git@github.com:me/delta.git');
  const first = host.createSession({ cwd: dir });
  const old = (await tools.call('engram_write', JSON.stringify({ content: '[09:00] 德尔塔的部署账号\n\n> 部署账号是 deploy-bot\n\n部署用 deploy-bot 账号。' }), first)).value as { docId: string; workspace: string };
  const clone = join(corpus.root, 'delta-clone');
  cpSync(dir, clone, { recursive: true });
  const second = host.createSession({ cwd: clone });
  const listed = await tools.call('engram_list', JSON.stringify({ limit: 200 }), second);
  assert.ok(!docIdsOf(listed.value).includes(old.docId), 'until the person answers, the clone does not see the original\'s memories');
  const fresh = (await tools.call('engram_write', JSON.stringify({ content: '[10:00] 德尔塔克隆里的发现\n\n> 克隆里测试要加 --runInBand\n\n克隆里跑测试要加 --runInBand。' }), second)).value as { docId: string; workspace: string };
  assert.notEqual(fresh.workspace, old.workspace);

  // The console's side: the same engine data, its own registry.
  const registry = new WorkspaceRegistry(engine);
  const [pending] = await registry.claims({ status: 'pending' });
  assert.ok(pending, 'a pending claim was recorded');
  assert.deepEqual(pending.candidates, [old.workspace]);
  assert.equal(pending.workspaceId, fresh.workspace);
  const accepted = await registry.acceptClaim(pending.id, old.workspace);
  assert.deepEqual(accepted.rewrite.moved, [fresh.docId]);

  // The clone's session is still running with the provisional id in its cache: it follows the merge.
  const after = await tools.call('engram_list', JSON.stringify({ limit: 200 }), second);
  assert.ok(docIdsOf(after.value).includes(old.docId) && docIdsOf(after.value).includes(fresh.docId));
  const next = (await tools.call('engram_write', JSON.stringify({ content: '[11:00] 合并之后写的\n\n> 合并后写入\n\n合并之后写的记忆。' }), second)).value as { workspace: string };
  assert.equal(next.workspace, old.workspace, 'new writes go to the chosen workspace');
});

test('no cwd: the session works in global', async (t) => {
  const { host } = await loadPlugin(t);
  const tools = host.tools! as unknown as ToolCaller;
  const session = host.createSession({ cwd: '' });
  const out = await tools.call('engram_write', JSON.stringify({ content: '[09:00] 无目录会话的记忆\n\n> 没有工作目录\n\n没有工作目录的会话写的。' }), session);
  assert.equal((out.value as { workspace: string }).workspace, 'global');
});
