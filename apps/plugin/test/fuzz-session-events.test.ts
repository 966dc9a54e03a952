// Session events of every type with missing or wrong-typed fields, fed to every hook the plugin
// registers (session/event, agent/pre-step, system-prompt/assemble, agent/turn-stopping, the system
// prompt sections) and to every tool with arbitrary arguments, over a real engine on a real corpus.
// Nothing throws into the host, no promise is left rejected, a pre-step decision keeps the host's
// messages first, and a tool fails only with its "[code] …" error. ENGRAM_FUZZ_RUNS scales it up.
// (Session *log frames* belong to session import, which does not exist yet: not fuzzed here.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { createHostPlugin } from '../src/host/apply.ts';
import type { HostContext, HostToolDefinition as ToolDefinition } from '../src/host/core/host-types.ts';
import { losslessJsonProblem, valueViolations } from '@engram/dsh-sim';
import { makeCorpus, NO_MODEL_INSTALL, type Corpus } from './helpers.ts';
import { fragmentText } from '../../../packages/engine/test/reliability/arbitraries.ts';

const RUNS = (base: number) => {
  const n = Number(process.env.ENGRAM_FUZZ_RUNS);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : base;
};

type Listener = (...args: any[]) => unknown;
const listeners = new Map<string, Listener[]>();
const sections: { name: string; text: () => string }[] = [];
const tools: ToolDefinition[] = [];
const logs: { level: string; message: string }[] = [];
const disposers: (() => unknown)[] = [];
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);
let corpus: Corpus;

/** Just enough of a host: records what the plugin registers so the test can call it directly. */
function fakeHost(): HostContext {
  const log = (level: string) => (message: unknown) => logs.push({ level, message: String(message) });
  const ctx: HostContext = {
    on(name, listener) {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
      return () => {};
    },
    effect(execute) {
      const dispose = execute();
      if (typeof dispose === 'function') disposers.push(dispose as () => unknown);
      return () => {};
    },
    inject(deps, callback) {
      if (deps.every((d) => d === 'tools' || d === 'httpServer')) {
        const dispose = callback(ctx);
        if (typeof dispose === 'function') disposers.push(dispose as () => unknown);
      }
      return () => {};
    },
    logger: { info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') },
    systemPrompt: {
      section: (def: { name: string; text: () => string }) => (sections.push(def), () => {}),
      context: (def: { name: string; text: () => string }) => (sections.push(def), () => {}),
    },
    tools: { register: (t: ToolDefinition) => (tools.push(t), () => {}) },
    httpServer: { register: () => () => {} },
  };
  return ctx;
}

const EVENT_TYPES = ['user/message', 'assistant/message', 'tool/call', 'tool/result', 'todo/write', 'turn/start', 'turn/end', 'compaction/summary', 'agent/inbox/spliced', 'request/context', 'session/header'];
const SESSION_IDS = ['s1', 's2', 's3', 'sub'];

const textBlock = fc.record({ type: fc.constantFrom('text', 'tool-call', 'image', 'reasoning', 7 as unknown as string), text: fc.oneof(fragmentText(12), fc.anything({ maxDepth: 1 })) }, { requiredKeys: [] });
const content = fc.oneof(fragmentText(12), fc.array(fc.oneof(textBlock, fc.anything({ maxDepth: 1 })), { maxLength: 3 }), fc.anything({ maxDepth: 1 }));
const source = fc.oneof(
  fc.record({ kind: fc.constantFrom('user', 'plugin', 'relay', 'system', 3 as unknown as string), plugin: fc.constantFrom('engram', 'system-prompt', 'other'), form: fc.constantFrom('recall', 'instructions', 'notice', 'snapshot', 'compaction') }, { requiredKeys: [] }),
  fc.anything({ maxDepth: 1 }),
);
const message = fc.record({ id: fc.oneof(fc.string({ maxLength: 6 }), fc.anything({ maxDepth: 0 })), role: fc.constantFrom('user', 'assistant', 'tool', null), content, source }, { requiredKeys: [] });
const todos = fc.array(fc.record({ content: fc.oneof(fc.string({ maxLength: 20 }), fc.anything({ maxDepth: 0 })), status: fc.constantFrom('pending', 'in_progress', 'completed', 'x', null) }, { requiredKeys: [] }), { maxLength: 4 });
const data = fc.oneof(
  message,
  fc.record({ message }, { requiredKeys: [] }),
  fc.record({ shadowedSeqs: fc.oneof(fc.array(fc.oneof(fc.nat(50), fc.anything({ maxDepth: 0 }))), fc.anything({ maxDepth: 0 })), summary: fc.anything({ maxDepth: 1 }) }, { requiredKeys: [] }),
  fc.record({ name: fc.constantFrom('todo_write', 'TodoWrite', 'x'), arguments: fc.oneof(todos.map((t) => JSON.stringify({ todos: t })), fc.string(), fc.anything({ maxDepth: 1 })), todos }, { requiredKeys: [] }),
  fc.anything({ maxDepth: 2 }),
);
const event = fc.record(
  {
    type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...EVENT_TYPES) }, fc.string({ maxLength: 8 }), fc.anything({ maxDepth: 0 })),
    seq: fc.oneof(fc.nat(60), fc.anything({ maxDepth: 0 })),
    time: fc.oneof(fc.nat(), fc.anything({ maxDepth: 0 })),
    data,
    surfaceOp: fc.oneof(fc.record({ op: fc.constantFrom('replace', 'append', 'x'), start: fc.oneof(fc.nat(60), fc.anything({ maxDepth: 0 })), end: fc.oneof(fc.nat(60), fc.anything({ maxDepth: 0 })) }, { requiredKeys: [] }), fc.anything({ maxDepth: 0 })),
  },
  { requiredKeys: ['type'] },
);
const events = fc.array(fc.oneof({ weight: 8, arbitrary: event }, fc.anything({ maxDepth: 1 })), { maxLength: 12 });
const session = fc.oneof(
  { weight: 6, arbitrary: fc.record({ id: fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...SESSION_IDS) }, fc.anything({ maxDepth: 0 })), origin: fc.constantFrom(undefined, 'subagent', 'main', 5), events, getter: fc.boolean() }).map(({ id, origin, events: evs, getter }) => (getter ? { header: { id, origin }, events: evs } : { header: { id, origin }, snapshotEvents: () => evs })) },
  fc.anything({ maxDepth: 2 }),
);
const decision = fc.oneof(
  { weight: 5, arbitrary: fc.array(message, { maxLength: 2 }).map((messages) => ({ kind: 'enter' as const, messages })) },
  fc.constant({ kind: 'reject' as const }),
  fc.anything({ maxDepth: 1 }),
);

before(async () => {
  process.on('unhandledRejection', onUnhandled);
  corpus = makeCorpus();
  // The full profile: the argument generator below speaks the full tools' parameters (lean-capabilities.test.ts fuzzes the lean ones).
  await createHostPlugin({ env: {} }).apply(fakeHost(), { diaryDir: corpus.diaryDir, dataDir: corpus.dataDir, tools: { profile: 'full' }, ...NO_MODEL_INSTALL });
  assert.ok(listeners.get('agent/pre-step')?.length, 'the plugin registered its hooks');
});

after(async () => {
  for (const d of disposers.reverse()) await d();
  corpus?.cleanup();
  process.off('unhandledRejection', onUnhandled);
});

const isEnter = (d: unknown): d is { kind: 'enter'; messages: unknown[] } =>
  typeof d === 'object' && d !== null && (d as { kind?: unknown }).kind === 'enter' && Array.isArray((d as { messages?: unknown }).messages);

test(`every hook survives session events of every type with missing or wrong-typed fields (${RUNS(2_000)} cases)`, { timeout: 300_000 }, async () => {
  const tally = new Map<string, number>();
  const hit = (k: string) => tally.set(k, (tally.get(k) ?? 0) + 1);
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('event', 'pre-step', 'assemble', 'turn-stopping', 'sections'), session, events, decision, fc.array(message, { maxLength: 3 }), async (hook, sess, evs, dec, payloadMessages) => {
      hit(hook);
      if (hook === 'event') {
        for (const l of listeners.get('session/event') ?? []) for (const e of evs) await l(sess, e);
      } else if (hook === 'pre-step') {
        for (const l of listeners.get('agent/pre-step') ?? []) {
          const out = await l({ agent: { session: sess }, messages: payloadMessages, turn: 1, step: 1 }, async () => dec);
          if (isEnter(dec)) {
            assert.ok(isEnter(out), 'an enter decision stays an enter decision');
            assert.deepEqual(out.messages.slice(0, dec.messages.length), dec.messages, 'the host’s messages come first, unchanged');
          } else assert.equal(out, dec, 'a decision the plugin does not understand is passed on untouched');
        }
      } else if (hook === 'assemble') {
        const assembly = { sections: [], contexts: [{ name: 'engram-recall', text: '' }, { name: 'other', text: 'x' }], tools: [], variables: {} };
        for (const l of listeners.get('system-prompt/assemble') ?? []) {
          const out = (await l(assembly, { agent: { session: sess } }, async () => assembly)) as typeof assembly;
          assert.equal(out.contexts.length, 2);
          assert.equal(out.contexts[1], assembly.contexts[1]);
        }
      } else if (hook === 'turn-stopping') {
        for (const l of listeners.get('agent/turn-stopping') ?? []) await l({ agent: { session: sess } });
      } else {
        for (const s of sections) assert.equal(typeof s.text(), 'string');
      }
    }),
    { numRuns: RUNS(2_000) },
  );
  await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(unhandled, [], 'no unhandled rejection');
  assert.deepEqual(logs.filter((l) => l.level === 'error'), [], 'no hook logged an error');
  if (process.env.ENGRAM_FUZZ_VERBOSE) for (const l of logs) console.log('#', l.level, l.message.slice(0, 200));
  console.log(`# session-event fuzz ${JSON.stringify(Object.fromEntries(tally))}, warnings logged: ${logs.filter((l) => l.level === 'warn').length}`);
});

test(`every tool with arbitrary arguments: a value or its own "[code] …" error (${RUNS(1_000)} cases)`, { timeout: 300_000 }, async () => {
  assert.ok(tools.length >= 7, `tools registered: ${tools.map((t) => t.name).join(', ')}`);
  const args = fc.oneof(
    fc.record({ query: fc.oneof(fragmentText(8), fc.anything({ maxDepth: 0 })), k: fc.oneof(fc.integer({ min: -3, max: 50 }), fc.anything({ maxDepth: 0 })), id: fc.oneof(fc.constantFrom('../x', '/etc/passwd', '2026-03-01-周报写作流程.txt', ''), fc.anything({ maxDepth: 0 })), content: fc.oneof(fragmentText(10), fc.anything({ maxDepth: 0 })), title: fc.anything({ maxDepth: 0 }), target: fc.oneof(fc.constant('周报每周五下午写,先列本周完成的任务'), fc.anything({ maxDepth: 0 })), replace: fc.anything({ maxDepth: 0 }), folder: fc.oneof(fc.constantFrom('../..', '/tmp', 'ok'), fc.anything({ maxDepth: 0 })), tags: fc.anything({ maxDepth: 1 }), limit: fc.anything({ maxDepth: 0 }), filter: fc.anything({ maxDepth: 0 }) }, { requiredKeys: [] }),
    fc.anything({ maxDepth: 2 }),
  );
  const codes = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...tools), args, async (tool, a) => {
      try {
        const value = await tool.execute(a as never, { callId: 'c1', name: tool.name, arguments: JSON.stringify(a) ?? '' });
        // What the real host checks after execute: lossless JSON matching output.schema, blocks from render.
        assert.equal(losslessJsonProblem(value), null, tool.name);
        assert.deepEqual(valueViolations(tool.output.schema as Record<string, unknown>, value), [], tool.name);
        const blocks = tool.output.render(a as never, value) as unknown as { type: string; text: string }[];
        assert.ok(Array.isArray(blocks) && blocks.every((b) => b.type === 'text' && typeof b.text === 'string'), `${tool.name}: render gives text blocks`);
        codes.set('ok', (codes.get('ok') ?? 0) + 1);
      } catch (e) {
        assert.ok(e instanceof Error, String(e));
        const m = /^\[([a-z-]+)\] ./.exec(e.message);
        assert.ok(m, `${tool.name}: an error the model cannot act on: ${e.name}: ${e.message}`);
        codes.set(m[1]!, (codes.get(m[1]!) ?? 0) + 1);
        if (process.env.ENGRAM_FUZZ_VERBOSE && m[1] === 'failed') console.log('#', tool.name, e.message.slice(0, 200));
      }
    }),
    { numRuns: RUNS(1_000) },
  );
  assert.deepEqual(unhandled, []);
  assert.equal(codes.get('failed') ?? 0, 0, 'no tool failed without its own code (a crash inside it)');
  console.log(`# tool fuzz ${JSON.stringify(Object.fromEntries(codes))}`);
});

// Findings of the fuzz above (both were red before the fixes in tools/memory-tools.ts and notes/note-sink.ts).
test('a tool called with arguments that are not an object says so: [invalid-arguments]', async () => {
  for (const tool of tools.filter((t) => (t.parameters as { required?: string[] })?.required?.length)) {
    for (const bad of [null, 42, 'text', [1, 2]]) {
      await assert.rejects(Promise.resolve().then(() => tool.execute(bad as never, { callId: 'c', name: tool.name, arguments: JSON.stringify(bad) })), /^Error: \[invalid-arguments\]|\[invalid-arguments\]/, `${tool.name}(${JSON.stringify(bad)})`);
    }
  }
});

test('one malformed event in the session does not lose the turn’s diary block', async () => {
  const before = logs.length;
  const reply = { type: 'assistant/message', seq: 3, data: { message: { content: [{ type: 'text', text: '<<<DailyNoteStart>>>\ncommand: create\ntitle: 模糊测试留下的日记\n\n[10:00] 模糊测试留下的日记\n这篇日记由模糊测试留下,用来确认一个坏事件不会吞掉本轮的语义块。\n<<<DailyNoteEnd>>>' }] } } };
  const sess = { header: { id: 'todo-session' }, snapshotEvents: () => [{ type: 'turn/start', seq: 1, data: {} }, reply, null] };
  for (const l of listeners.get('agent/turn-stopping') ?? []) await l({ agent: { session: sess } });
  assert.deepEqual(logs.slice(before).filter((l) => l.level === 'warn'), []);
});
