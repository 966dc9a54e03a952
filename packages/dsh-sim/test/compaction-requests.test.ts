import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHost, prefixStability, prefixStableShare, systemPromptsIdentical, type EventEnvelope, type RecordedRequest } from '../src/index.ts';
import { todoCall } from './helpers.ts';

test('compaction logs start/summary/end and the replacing message; the model then sees summary + later messages', async () => {
  const host = createHost({ hostContexts: false });
  const session = host.createSession();
  await session.userTurn('老问题', [{ text: '老回答' }]);
  await session.userTurn('第二个问题', [{ text: '第二个回答' }]);
  const history = session.keptHistory();
  const keep = history.find((e) => e.type === 'user/message' && e.data.content[0].text === '第二个问题')!;
  const result = session.compact({ summary: '用户问过老问题', shadowedRange: { start: history[0]!.seq, end: keep.seq - 1 } });

  assert.deepEqual(result.events.map((e) => e.type), ['compaction/start', 'compaction/summary', 'compaction/end', 'user/message']);
  const summary = result.events[1]!.data;
  assert.equal(summary.compactionId, result.compactionId);
  assert.deepEqual(summary.summary, [{ type: 'text', text: '用户问过老问题' }]);
  assert.deepEqual(summary.shadowedSeqs, result.shadowedSeqs);
  assert.equal(summary.shadowedSeqs.length, 2);
  assert.ok(summary.shadowedTokenCount > 0);
  assert.equal(typeof summary.provider, 'string');
  assert.equal(typeof summary.model, 'string');
  const replacing = result.events[3]!;
  assert.equal(replacing.data.source.kind, 'model', 'a summary is not a person’s query');
  assert.deepEqual(replacing.surfaceOp, { op: 'replace', start: summary.shadowedRange.start, end: summary.shadowedRange.end });

  const { requests } = await session.userTurn('第三个问题', [{ text: '第三个回答' }]);
  assert.deepEqual(
    requests[0]!.messages.map((m) => m.content),
    ['用户问过老问题', '第二个问题', '第二个回答', '第三个问题'],
  );
});

test('compaction events can be delivered twice through session/event', async () => {
  const host = createHost();
  const seen: EventEnvelope[] = [];
  await host.load({ name: 'watch', apply: (ctx) => void ctx.on('session/event', (_s: unknown, e: EventEnvelope) => void (e.type.startsWith('compaction/') && seen.push(e))) });
  const session = host.createSession();
  await session.userTurn('q', [{ text: 'a' }]);
  session.compact({ summary: 's', duplicateDelivery: true });
  assert.deepEqual(seen.map((e) => e.type), ['compaction/start', 'compaction/summary', 'compaction/end', 'compaction/start', 'compaction/summary', 'compaction/end']);
  assert.equal(seen[1], seen[4], 'the same envelope, same seq');
  assert.equal(session.recordedEvents().filter((e) => e.type === 'compaction/summary').length, 1, 'logged once');
});

test('a snapshot folded away by compaction is recorded again at the next step', async () => {
  const host = createHost();
  const session = host.createSession();
  await session.userTurn('q', [{ text: 'a' }]);
  session.compact({ summary: 'summary' });
  const { requests } = await session.userTurn('q2', [{ text: 'b' }]);
  assert.equal(requests[0]!.messages.at(-1)!.source?.form, 'snapshot');
});

const request = (messages: string[], system = 'S', sessionId = 's'): RecordedRequest => ({
  sessionId,
  origin: undefined,
  turn: 1,
  step: 1,
  provider: 'p',
  model: 'm',
  system,
  tools: [],
  messages: messages.map((content) => ({ role: 'user', content })),
});

test('prefixStableShare counts requests that only grow at the tail', () => {
  assert.equal(prefixStableShare([request(['a']), request(['a', 'b']), request(['a', 'b', 'c', 'd'])]), 1);
  const changed = prefixStability([request(['a', 'b']), request(['a', 'X', 'c'])]);
  assert.equal(changed.share, 0);
  assert.deepEqual(changed.breaks.map((b) => [b.reason, b.position]), [['message', 1]]);
  assert.equal(prefixStability([request(['a']), request(['a', 'b'], 'S2')]).breaks[0]!.reason, 'system');
  // Requests are compared within their own session only.
  assert.equal(prefixStableShare([request(['a'], 'S', 's1'), request(['z'], 'S', 's2'), request(['a', 'b'], 'S', 's1')]), 1);
  assert.equal(prefixStableShare([request(['a'])]), 1);
  assert.equal(systemPromptsIdentical([request([]), request([], 'S')]), true);
  assert.equal(systemPromptsIdentical([request([]), request([], 'other')]), false);
});

test('injecting in messages keeps the prefix stable; a changing section breaks it at the front', async () => {
  const inMessages = createHost();
  let n = 0;
  await inMessages.load({
    name: 'messages',
    apply: (ctx) =>
      void ctx.on('agent/pre-step', async (p: { messages: readonly { source: { kind: string } }[] }, next: () => Promise<any>) => {
        const d = await next();
        if (d.kind === 'reject' || !p.messages.some((m) => m.source.kind === 'user')) return d;
        return { ...d, messages: [...d.messages, { role: 'user', content: [{ type: 'text', text: `recall ${++n}` }], source: { kind: 'plugin', plugin: 'engram', form: 'recall' } }] };
      }),
  });
  const a = inMessages.createSession();
  await a.userTurn('one', [todoCall([{ content: 't', status: 'in_progress' }]), { text: 'x' }]);
  await a.userTurn('two', [{ text: 'y' }]);
  assert.equal(prefixStableShare(inMessages.requests), 1);
  assert.equal(systemPromptsIdentical(inMessages.requests), true);

  const inSystem = createHost();
  let m = 0;
  await inSystem.load({ name: 'system', inject: ['systemPrompt'], apply: (ctx) => void ctx.systemPrompt.section({ name: 'recall', order: 50, text: () => `recall ${++m}` }) });
  const b = inSystem.createSession();
  await b.userTurn('one', [todoCall([]), { text: 'x' }]);
  await b.userTurn('two', [{ text: 'y' }]);
  assert.equal(prefixStableShare(inSystem.requests), 0);
  assert.equal(systemPromptsIdentical(inSystem.requests), false);
});
