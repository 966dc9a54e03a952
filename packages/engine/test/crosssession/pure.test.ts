// The pure parts of cross-session memory: who a wall message is for, the brief's window and
// grouping, the notebook's cut mark, the provenance line.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatElapsed, groupOtherSessions } from '../../src/crosssession/brief.ts';
import { cutWithMark, renderNotebookInjection } from '../../src/crosssession/notebook-render.ts';
import { formatProvenance } from '../../src/crosssession/provenance.ts';
import { addressedTo, parseWallTarget, resolveWallTarget, storedRecipient } from '../../src/crosssession/wall-target.ts';

test('wall targets: public words, s:/ws: forms, bare values resolved against known workspaces', () => {
  const table: [to: unknown, known: boolean, stored: string | RegExp][] = [
    [undefined, false, ''],
    ['', false, ''],
    ['  所有人 ', false, ''],
    ['global', false, ''],
    ['s:ABCDEF12', false, 's:abcdef12'],
    ['ws:my-proj', false, 'ws:my-proj'],
    ['my-proj', true, 'ws:my-proj'],
    ['1a2b3c', false, 's:1a2b3c'],
    ['1a2b3', false, /bad-input|至少 6 位/],
    ['s:1a2b3', false, /至少 6 位/],
    ['a b', false, /不合法/],
    ['s:%%%%%%', false, /只含字母/],
    [42, false, /必须是字符串/],
  ];
  for (const [to, known, expected] of table) {
    const run = () => storedRecipient(resolveWallTarget(parseWallTarget(to), known));
    if (typeof expected === 'string') assert.equal(run(), expected, String(to));
    else assert.throws(run, expected, String(to));
  }
  const reader = { sessionId: '1A2B3C4D-0000', workspace: 'ws-a' };
  assert.ok(addressedTo('s:1a2b3c', reader));
  assert.ok(addressedTo('ws:ws-a', reader));
  assert.ok(!addressedTo('', reader), 'public is not "for you"');
  assert.ok(!addressedTo('s:1a2b3d', reader));
  assert.ok(!addressedTo('ws:ws-b', reader));
});

test('brief window: (since, now], other sessions only, newest session first, two each', () => {
  const m = (sessionId: string | null, mtimeMs: number, docId = `${sessionId}-${mtimeMs}`) => ({ docId, title: docId, date: '2026-11-01', time: null, summary: '', workspace: 'ws', sessionId, mtimeMs });
  const grouped = groupOtherSessions([m('me', 50), m('a', 10), m('a', 20), m('a', 30), m('a', 40), m('b', 45), m(null, 41), m('c', 100), m('c', 101)], 'me', { sinceMs: 10, nowMs: 100 });
  assert.deepEqual(grouped.groups.map((g) => [g.sessionId, g.total, g.items.map((i) => i.mtimeMs)]), [['c', 1, [100]], ['b', 1, [45]], ['a', 3, [40, 30]]]);
  assert.equal(grouped.memories, 5);
  const capped = groupOtherSessions([m('a', 20), m('b', 30), m('c', 40)], 'me', { sinceMs: 0, nowMs: 100 }, { maxSessions: 2 });
  assert.equal(capped.sessionsOmitted, 1);
  assert.deepEqual([formatElapsed(30_000), formatElapsed(61 * 60_000), formatElapsed(26 * 3_600_000)], ['不到 1 分钟', '1 小时 1 分钟', '1 天 2 小时']);
});

test('cut mark: counted in code points, never splits a surrogate pair, says how much was left out', () => {
  const text = '😀'.repeat(10);
  const cut = cutWithMark(text, 4);
  assert.ok(cut.cut);
  assert.ok(cut.text.startsWith('😀😀😀😀\n…〔已截断:本节共 10 字,只注入了前 4 字'));
  assert.ok(!cut.text.includes('\uFFFD'));
  assert.deepEqual(cutWithMark('短', 4), { text: '短', cut: false, total: 1 });
  assert.equal(renderNotebookInjection({ rules: ' \n\n ', minor: [] }, 100), '', 'blank books inject nothing');
  assert.equal(renderNotebookInjection({ rules: '规矩', minor: [] }, 0), '', 'a zero budget injects nothing');
  assert.equal(formatProvenance({ sessionId: 'abcdef0123456789', origin: 'import', workspace: 'global' }, { workspace: true }), '〔s:abcdef01 · 会话导入 · global〕');
});
