// Rows → turns: the person's words without injected fragments, the final visible answer without
// thinking or diary blocks, tools with their JSON-string arguments previewed; tolerant headers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseSessionLog, readSessionBytes } from '../../src/sessions/log.ts';
import { argsPreview } from '../../src/sessions/text.ts';
import { concat, EventWriter, richSession, simpleTurn, T0, zstdReady } from './fixtures.ts';

test('turns of a real-shaped log: person only, final answer, tools, title', async () => {
  await zstdReady();
  const fx = richSession();
  const log = readSessionBytes(concat(fx.frames));
  assert.equal(log.id, fx.id);
  assert.equal(log.cwd, '/work/alpha');
  assert.equal(log.title, '东京节点端口与周报');
  assert.equal(log.titleSource, 'event');
  assert.equal(log.turns.length, 2);
  assert.deepEqual(log.damage, { badFrames: 0, badLines: 0, skippedBytes: 0 });

  const [t1, t2] = log.turns;
  assert.equal(t1!.turn, 1);
  assert.equal(t1!.user, '东京节点 443 端口被占用了怎么办?');
  assert.equal(t1!.assistant, '443 被 nginx 占用。结论:东京节点改用 8443 端口,并重启 sing-box。', 'the last visible text, diary block removed');
  assert.deepEqual(t1!.tools, [
    { name: 'read_file', argsPreview: 'path=etc/sing-box.json, limit=200' },
    { name: 'bash', argsPreview: 'command=ss -ltnp | grep 443', error: true },
  ]);
  assert.equal(t2!.user, '## 周报应该怎么写?\nTag: 伪标签');
  assert.equal(t2!.assistant, '周报每周五下午写,列三件事。');

  const said = JSON.stringify(log.turns.map(({ thinking: _thinking, ...t }) => t));
  for (const leaked of ['INJECTED', 'PLUGIN-ONLY', 'SNAPSHOT', 'THOUGHT', 'INLINE-THINK', 'DIARY-BLOCK']) assert.ok(!said.includes(leaked), `${leaked} must not be in what was said`);
  // The reasoning is kept apart, in log order: the host's reasoning blocks, another adapter's thinking block, inline <think>.
  assert.deepEqual(log.turns.map((t) => t.thinking), ['THOUGHT-ONE 先想想\n\nTHOUGHT-TWO', 'THOUGHT-THREE\n\nINLINE-THINK']);
  assert.ok(log.turns.every((t) => t.raw === undefined), 'stored messages only when asked for');
  for (const leaked of ['INJECTED', 'PLUGIN-ONLY', 'SNAPSHOT', 'DIARY-BLOCK']) assert.ok(!JSON.stringify(log.turns).includes(leaked), `${leaked} must not be in the turns`);
  assert.equal(log.startedAt, T0);
  assert.ok(log.endedAt! > T0);
  assert.equal(t1!.startedAt, T0 + 1000);
});

test('a bare header object, and a log without turn/start events', () => {
  const w = new EventWriter(T0);
  const rows = [
    { id: 'bare-1', cwd: '/p', title: '标题在头里' },
    w.person('第一个问题'),
    w.assistant(0, '第一个回答'),
    w.person('第二个问题'),
    w.person('补充一句'),
    w.assistant(0, '第二个回答'),
  ];
  const log = parseSessionLog(rows);
  assert.equal(log.id, 'bare-1');
  assert.equal(log.title, '标题在头里');
  assert.equal(log.titleSource, 'header');
  assert.deepEqual(
    log.turns.map((t) => [t.user, t.assistant]),
    [
      ['第一个问题', '第一个回答'],
      ['第二个问题\n\n补充一句', '第二个回答'],
    ],
  );
});

test('a lost header: fallback id, title from the first words; junk rows ignored', () => {
  const w = new EventWriter(T0);
  const rows = [{ type: 'request/header', seq: 0, data: null }, null, 42, { type: 7 }, ...simpleTurn(w, 1, '  怎么重启服务\n第二行', '用 systemctl restart。')];
  const log = parseSessionLog(rows as unknown[], { fallbackId: 'dir-name' });
  assert.equal(log.id, 'dir-name');
  assert.equal(log.cwd, null);
  assert.equal(log.title, '怎么重启服务');
  assert.equal(log.titleSource, 'derived');
  assert.equal(log.turns.length, 1);
});

test('redelivered events (same seq) are read once; turns with nothing said are dropped', () => {
  const w = new EventWriter(T0);
  const msg = w.person('只说一次');
  const rows = [{ type: 'session/header', data: { id: 's' } }, w.turnStart(1), msg, msg, w.assistant(1, '好'), w.turnEnd(1), w.turnStart(2), w.turnEnd(2)];
  const log = parseSessionLog(rows);
  assert.equal(log.turns.length, 1);
  assert.equal(log.turns[0]!.user, '只说一次');
});

test('the configured recall block name is stripped as well', () => {
  const w = new EventWriter(T0);
  const rows = [{ id: 's' }, w.turnStart(1), w.person('问题<my-recall>CUSTOM-BLOCK</my-recall>'), w.assistant(1, '答'), w.turnEnd(1)];
  assert.equal(parseSessionLog(rows, { injectedTags: ['my-recall'] }).turns[0]!.user, '问题');
  assert.match(parseSessionLog(rows).turns[0]!.user, /CUSTOM-BLOCK/, 'an unknown tag is the person’s text');
});

test('argsPreview: raw JSON strings, broken JSON, nested values', () => {
  assert.equal(argsPreview('{"command":"ls -la","cwd":"/tmp"}'), 'command=ls -la, cwd=/tmp');
  assert.equal(argsPreview('{"path": "a.ts", "edits": [{"a":1}]}'), 'path=a.ts');
  assert.equal(argsPreview('{broken'), '{broken');
  assert.equal(argsPreview(''), '');
  assert.equal(argsPreview('"just a string"'), 'just a string');
  assert.ok(argsPreview(JSON.stringify({ content: 'x'.repeat(500) })).length <= 120);
});

test('header shapes: wrapped under data or header, bare, typed "header"; events are never headers', () => {
  const variants: [unknown, string][] = [
    [{ type: 'session/header', data: { id: 'w1', cwd: '/a' } }, 'w1'],
    [{ header: { id: 'h1', cwd: '/a' } }, 'h1'],
    [{ type: 'header', id: 't1', cwd: '/a' }, 't1'],
    [{ id: 'b1', cwd: '/a' }, 'b1'],
    [{ type: 'user/message', seq: 0, id: 'not-a-header', data: {} }, 'fallback'],
  ];
  for (const [row, id] of variants) assert.equal(parseSessionLog([row], { fallbackId: 'fallback' }).id, id, JSON.stringify(row));
});

test('a tool result in the host’s own shape (source.callId, a tool-result block with isError) marks its call failed', () => {
  const w = new EventWriter(T0);
  const hostResult = (callId: string, isError: boolean) =>
    w.ev('tool/result', {
      turn: 1,
      step: 1,
      // packages/llm/llm/src/message.ts createToolResultMessage in the host repository
      message: { id: `m${callId}`, role: 'user', source: { kind: 'tool', callId }, content: [{ type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: 'out' }], isError }] },
      ...(isError ? { error: { name: 'Error', code: 'tool-failed' } } : {}),
    });
  const log = parseSessionLog([{ id: 'host-shape' }, w.turnStart(1), w.person('跑一下'), w.call(1, 'bash', { command: 'false' }, 'k1'), hostResult('k1', true), w.call(1, 'bash', { command: 'true' }, 'k2'), hostResult('k2', false), w.assistant(1, '第一条失败了。'), w.turnEnd(1)]);
  assert.deepEqual(
    log.turns[0]!.tools.map((t) => [t.argsPreview, t.error === true]),
    [
      ['command=false', true],
      ['command=true', false],
    ],
  );
});
