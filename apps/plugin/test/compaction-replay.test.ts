// A long session replayed through the host simulator with two compactions: what is stored, what
// reaches the model after each compaction and for each question, within the budgets, once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HOST_VARIANTS, prefixStability } from '@engram/dsh-sim';
import { CompactionMemory, estimateTokens, OVERVIEW_TAG } from '@engram/engine';
import { assertHistoryBudgets, compactionMessages, FILE_TEXT, loadCompactionPlugin } from './compaction-helpers.ts';
import { isOwn } from './helpers.ts';

const SUMMARY_1 = [
  '## 东京节点端口',
  '443 端口被 nginx 占用,决定改用 8443,并重启 sing-box。配置在 config/tokyo.yaml。',
  '',
  '## 数据库迁移',
  '- 迁移前必须先备份数据库。',
  '- 以后迁移一律逐表校验行数。',
  '',
  '## 闲聊',
  '用户打了个招呼。',
].join('\r\n');

const SUMMARY_2 = [
  '## 周报',
  '周报改为每周四下午写,结论是先列完成的任务再写计划。',
  '',
  '## 数据库迁移',
  '迁移前必须先备份数据库,不要再跳过这一步。',
  '',
  '## Notes',
  'The user insisted: every release 必须 be tagged before deploy, no exceptions.',
].join('\u2028');

for (const [variant, hostOptions] of Object.entries(HOST_VARIANTS)) {
  test(`two compactions replayed: ingest, overview once per window, history within budgets (${variant})`, async (t) => {
    let memory: CompactionMemory | null = null;
    const { host, engine } = await loadCompactionPlugin(t, {}, hostOptions);
    memory = new CompactionMemory({ database: engine.database, dataDir: engine.config.dataDir, tokenizer: engine.tokenizer, config: () => engine.config });
    const session = host.createSession({ cwd: '/work/project' });
    const scope = { workspace: '/work/project', sessionId: session.id };

    await session.userTurn('东京节点 443 端口被占用了怎么办?', [
      { toolCalls: [{ name: 'read', arguments: { path: 'config/tokyo.yaml' } }] },
      { toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] },
      { reasoning: 'SECRET-THOUGHT 不该被存下', text: '443 被 nginx 占用。建议东京节点改用 8443 端口,并重启 sing-box 服务。结论:东京节点端口定为 8443。' },
    ]);
    await session.userTurn('数据库从 PostgreSQL 迁移到 libSQL 要注意什么?', [{ text: '迁移前必须先备份数据库,再逐表校验行数,确认无误后切换连接串。' }]);
    const third = await session.userTurn('周报应该怎么写?', [{ text: '周报每周五下午写,先列本周完成的任务,再写下周计划,发给项目组邮箱。' }]);
    assert.equal(compactionMessages(third.requests[0]!, 'compaction-overview').length, 0, 'no overview before any compaction');

    const kept = session.keptHistory();
    const lastFolded = kept.find((e) => e.type === 'user/message' && e.data.content[0].text === '周报应该怎么写?')!.seq - 1;
    session.compact({ summary: SUMMARY_1, shadowedRange: { start: kept[0]!.seq, end: lastFolded } });

    // Window 1: the question about the folded topic.
    const ask = await session.userTurn('东京节点现在用哪个端口?', [{ text: '8443' }, { text: 'unused' }]);
    const first = ask.requests[0]!;
    const overview = compactionMessages(first, 'compaction-overview');
    assert.equal(overview.length, 1, 'the window’s overview reaches the first request after the compaction');
    assert.match(overview[0]!.content, new RegExp(`<${OVERVIEW_TAG}>`));
    assert.match(overview[0]!.content, /东京节点端口 — .*8443/);
    assert.doesNotMatch(overview[0]!.content, /闲聊/, 'a section without a conclusion gives no overview line');
    assert.ok(estimateTokens(overview[0]!.content) <= 300);
    const rules = compactionMessages(first, 'compaction-rules');
    assert.equal(rules.length, 1);
    assert.match(rules[0]!.content, /迁移前必须先备份数据库/);
    const history = compactionMessages(first, 'compaction-recall');
    assert.equal(history.length, 1, 'the question about a folded topic gets the history');
    assert.match(history[0]!.content, /8443/);
    assert.match(history[0]!.content, /历史只作参考,不作结论/);
    const userIndex = first.messages.map((m) => m.source?.kind).lastIndexOf('user');
    assert.ok(first.messages.slice(userIndex + 1).some((m) => isOwn(m, 'compaction-recall')), 'delivered with the question, in the same step');
    assert.equal(host.inboxViolations.length, 0);

    // Same topic again: cool-down, and the overview is not repeated within the window.
    const again = await session.userTurn('东京节点的端口现在还是用 8443 吗?', [{ text: '是' }]);
    assert.equal(compactionMessages(again.requests[0]!, 'compaction-recall').length, 1, 'no new history block (cool-down); the old one stays in place');
    assert.equal(compactionMessages(again.requests[0]!, 'compaction-overview').length, 1, 'the overview is not injected twice in a window');
    const unrelated = await session.userTurn('帮我写一个快速排序函数', [{ text: 'def qs(): ...' }]);
    assert.equal(compactionMessages(unrelated.requests[0]!, 'compaction-recall').length, 1, 'an unrelated question adds nothing');

    // The second compaction arrives twice (a reconnecting host); it folds the first window, our
    // injected messages included.
    const before = session.keptHistory();
    const lastKept = before.at(-1)!.seq;
    session.compact({ summary: SUMMARY_2, shadowedRange: { start: before[0]!.seq, end: lastKept }, duplicateDelivery: true });

    const week = await session.userTurn('周报是周几写来着?', [{ text: '周四' }]);
    const w2 = week.requests[0]!;
    const overview2 = compactionMessages(w2, 'compaction-overview');
    assert.equal(overview2.length, 1, 'window 2 shows only its own overview (the first one was folded)');
    assert.notEqual(overview2[0]!.content, overview[0]!.content);
    assert.match(overview2[0]!.content, /周报 — .*周四/);
    const h2 = compactionMessages(w2, 'compaction-recall');
    assert.equal(h2.length, 1);
    assert.match(h2[0]!.content, /周报/);
    const migrate = await session.userTurn('数据库迁移之前要先做什么?', [{ text: '备份' }]);
    const h3 = compactionMessages(migrate.requests[0]!, 'compaction-recall');
    assert.equal(h3.length, 2, 'a block from the first compaction is still found in window 2');
    assert.match(h3[1]!.content, /备份/);

    // Budgets on everything that reached the model.
    const measured = assertHistoryBudgets(host);
    t.diagnostic(`history messages: ${measured.length}, tokens ${measured.join(' / ')}; overviews ${estimateTokens(overview[0]!.content)} / ${estimateTokens(overview2[0]!.content)} tokens`);

    // Within a window the prompt only grows at the tail; only the compactions break the prefix.
    const breaks = prefixStability(host.requests).breaks;
    assert.ok(breaks.length <= 2, `prefix breaks: ${JSON.stringify(breaks)}`);

    // What was stored.
    const runs = await memory.runs(scope);
    assert.equal(runs.length, 2, 'two compactions, the duplicate delivery stored once');
    const blocks = await memory.listBlocks(scope);
    assert.equal(new Set(blocks.map((b) => b.fingerprint)).size, blocks.length, 'no block stored twice');
    const tool = blocks.filter((b) => b.kind === 'tool');
    assert.equal(tool.length, 1, 'the read result is stored, the bash output is not');
    assert.equal(tool[0]!.title, 'read config/tokyo.yaml');
    assert.equal(tool[0]!.body, FILE_TEXT);
    for (const b of blocks) {
      assert.doesNotMatch(b.body, /SECRET-THOUGHT/, 'reasoning is not dialogue');
      assert.doesNotMatch(b.body, /BASH-OUTPUT/);
      assert.doesNotMatch(b.body, /engram-history|engram-overview|engram-rules|历史只作参考/, 'our own injected text is never stored back');
    }
    assert.ok(blocks.some((b) => b.layer === 'L1' && b.title === '东京节点端口'));
    assert.ok(blocks.some((b) => b.kind === 'dialogue' && /快速排序/.test(b.body)), 'window 1’s dialogue was stored by the second compaction');

    const book = await memory.rulesBook(scope);
    const backup = book.find((r) => /先备份数据库/.test(r.text));
    assert.equal(backup?.hits, 2, 'the rule stated again by the second summary counts twice (and not three times for the duplicate delivery)');
    assert.ok(!book.some((r) => /release 必须 be tagged/.test(r.text)), 'an English sentence never enters the rules book');
    const archive = await memory.archive(scope);
    assert.ok(archive.sections.some((s) => /release 必须 be tagged/.test(s.body)), 'it goes to the archive instead');
    await host.settle();
    host.assertClean();
  });
}
