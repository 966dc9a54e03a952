// Trigger picking and todo reading: pure functions, tested with tables of event lists.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyFreezeState, pickTrigger, readTodos, todosFromToolArguments, type FreezeOptions, type FreezeState } from '../src/host/recall/freeze.ts';
import type { HostEvent } from '../src/host/core/host-types.ts';

let seq = 0;
const ev = (type: string, data: unknown): HostEvent => ({ type, seq: seq++, data });
const user = (id: string, text: string, kind = 'user') => ev('user/message', { id, role: 'user', content: [{ type: 'text', text }], source: { kind } });
const todoWrite = (todos: unknown) => ev('todo/write', { todos });
const toolCall = (args: unknown, name = 'todo_write') => ev('tool/call', { turn: 1, step: 1, callId: 'c', name, arguments: args });
const ON: FreezeOptions = { onUserMessage: true, onTodoCheck: true };
const state = (over: Partial<FreezeState> = {}): FreezeState => ({ ...emptyFreezeState(), ...over });

test('readTodos: both sources, todo/write first, item field names', () => {
  const items = [
    { content: 'a', status: 'completed' },
    { text: 'b', status: 'in_progress' },
    { title: 'c', status: 'pending' },
  ];
  const cases: { name: string; events: HostEvent[]; source: string | null; completed: number; inProgress: string[] }[] = [
    { name: 'todo/write array', events: [todoWrite(items)], source: 'todo/write', completed: 1, inProgress: ['b'] },
    { name: 'tool/call JSON string', events: [toolCall(JSON.stringify({ todos: items }))], source: 'tool/call', completed: 1, inProgress: ['b'] },
    {
      name: 'todo/write wins over a newer tool/call',
      events: [todoWrite([{ content: 'x', status: 'in_progress' }]), toolCall(JSON.stringify({ todos: items }))],
      source: 'todo/write',
      completed: 0,
      inProgress: ['x'],
    },
    { name: 'newest todo/write', events: [todoWrite(items), todoWrite([{ content: 'z', status: 'completed' }])], source: 'todo/write', completed: 1, inProgress: [] },
    { name: 'other tools are not todo lists', events: [toolCall(JSON.stringify({ todos: items }), 'bash')], source: null, completed: 0, inProgress: [] },
    { name: 'no events', events: [], source: null, completed: 0, inProgress: [] },
  ];
  for (const c of cases) {
    const snap = readTodos(c.events);
    assert.equal(snap.source, c.source, c.name);
    assert.equal(snap.completed, c.completed, c.name);
    assert.deepEqual(snap.inProgress, c.inProgress, c.name);
  }
});

test('the original bug: a property read on the raw JSON string finds no todos', () => {
  const raw = JSON.stringify({ todos: [{ content: 'a', status: 'completed' }] });
  assert.equal((raw as unknown as { todos?: unknown }).todos, undefined);
  assert.equal(todosFromToolArguments(raw)?.length, 1);
});

test('five malformed inputs read as "no list", never throw', () => {
  const malformed: [string, HostEvent][] = [
    ['broken JSON', toolCall('{"todos": [ {"content": "a", ')],
    ['arguments is an array', toolCall('[{"content":"a","status":"completed"}]')],
    ['todos is not an array', toolCall(JSON.stringify({ todos: 'a, b' }))],
    ['missing data', { type: 'tool/call', seq: seq++, data: undefined }],
    ['todo item without content', todoWrite([{ status: 'completed' }, { content: '', status: 'completed' }, null, 7])],
  ];
  for (const [name, event] of malformed) {
    let snap: ReturnType<typeof readTodos> | undefined;
    assert.doesNotThrow(() => {
      snap = readTodos([event]);
    }, name);
    assert.equal(snap!.completed, 0, name);
    assert.deepEqual(snap!.inProgress, [], name);
    assert.doesNotThrow(() => pickTrigger({ events: [user('u1', '周报'), event], state: state(), options: ON }), name);
  }
  // Malformed input next to a good list does not hide it.
  assert.equal(readTodos([toolCall(JSON.stringify({ todos: [{ content: 'a', status: 'completed' }] })), toolCall('{bad')]).completed, 1);
});

test('pickTrigger: who asks, and when', () => {
  const cases: {
    name: string;
    events: HostEvent[];
    live?: { key: string; text: string } | null;
    state: FreezeState;
    options?: FreezeOptions;
    kind: string | null;
    query?: string;
  }[] = [
    { name: 'first person message', events: [user('u1', '周报怎么写')], state: state(), kind: 'first-turn', query: '周报怎么写' },
    { name: 'already consumed', events: [user('u1', '周报')], state: state({ consumed: ['u1'], frozen: true }), kind: null },
    { name: 'new message after a freeze', events: [user('u1', 'a'), user('u2', '东京节点')], state: state({ consumed: ['u1'], frozen: true }), kind: 'user-message', query: '东京节点' },
    {
      name: 'the live message wins over the recorded previous one',
      events: [user('u1', '周报')],
      live: { key: 'u2', text: '东京节点' },
      state: state({ consumed: ['u1'], frozen: true }),
      kind: 'user-message',
      query: '东京节点',
    },
    { name: 'snapshots and plugin text are not queries', events: [user('s1', 'Working directory: /x', 'plugin'), user('m1', 'summary', 'model')], state: state(), kind: null },
    { name: 'empty text is not a query', events: [user('u1', '   ')], state: state(), kind: null },
    {
      name: 'onUserMessage off: no re-recall once frozen',
      events: [user('u1', 'a'), user('u2', 'b')],
      state: state({ consumed: ['u1'], frozen: true }),
      options: { onUserMessage: false, onTodoCheck: true },
      kind: null,
    },
    {
      name: 'onUserMessage off: still the first freeze (zero hits so far)',
      events: [user('u1', 'a'), user('u2', 'b')],
      state: state({ consumed: ['u1'], frozen: false }),
      options: { onUserMessage: false, onTodoCheck: true },
      kind: 'first-turn',
      query: 'b',
    },
    {
      name: 'more todos completed, one in progress',
      events: [user('u1', 'a'), todoWrite([{ content: 'x', status: 'completed' }, { content: '检查备份', status: 'in_progress' }])],
      state: state({ consumed: ['u1'], frozen: true, completedSeen: 0 }),
      kind: 'phase-change',
      query: '检查备份',
    },
    {
      name: 'completed but nothing in progress',
      events: [user('u1', 'a'), todoWrite([{ content: 'x', status: 'completed' }])],
      state: state({ consumed: ['u1'], frozen: true, completedSeen: 0 }),
      kind: null,
    },
    {
      name: 'same count: frozen',
      events: [user('u1', 'a'), todoWrite([{ content: 'x', status: 'completed' }, { content: 'y', status: 'in_progress' }])],
      state: state({ consumed: ['u1'], frozen: true, completedSeen: 1 }),
      kind: null,
    },
    {
      name: 'onTodoCheck off',
      events: [user('u1', 'a'), todoWrite([{ content: 'x', status: 'completed' }, { content: 'y', status: 'in_progress' }])],
      state: state({ consumed: ['u1'], frozen: true, completedSeen: 0 }),
      options: { onUserMessage: true, onTodoCheck: false },
      kind: null,
    },
  ];
  for (const c of cases) {
    const d = pickTrigger({ events: c.events, live: c.live ?? null, state: c.state, options: c.options ?? ON });
    assert.equal(d.trigger?.kind ?? null, c.kind, c.name);
    if (c.query !== undefined) assert.equal(d.trigger?.query, c.query, c.name);
  }
});

test('pickTrigger phaseOnly: an unconsumed person message is left for the pre-step; todo progress still counts', () => {
  const events = [user('u1', '周报'), todoWrite([{ content: 'x', status: 'completed' }, { content: '检查备份', status: 'in_progress' }])];
  const d = pickTrigger({ events, state: state({ completedSeen: 0 }), options: ON, phaseOnly: true });
  assert.equal(d.trigger?.kind, 'phase-change');
  assert.deepEqual(d.state.consumed, [], 'the message is not consumed by a caller that could not see the newest one');
  assert.equal(pickTrigger({ events: [user('u1', '周报')], state: state(), options: ON, phaseOnly: true }).trigger, null);
});

test('pickTrigger state: a user trigger consumes the key and sets the todo baseline', () => {
  const events = [todoWrite([{ content: 'x', status: 'completed' }, { content: 'y', status: 'in_progress' }])];
  const first = pickTrigger({ events, live: { key: 'u1', text: '周报' }, state: state(), options: ON });
  assert.equal(first.trigger?.kind, 'first-turn');
  assert.deepEqual(first.state.consumed, ['u1']);
  assert.equal(first.state.completedSeen, 1);
  // When the live message is recorded at the next step, it is not new any more.
  const again = pickTrigger({ events: [...events, user('u1', '周报')], state: { ...first.state, frozen: true }, options: ON });
  assert.equal(again.trigger, null);
});

test('pickTrigger state: fewer completed todos (a new list) is a new baseline, not progress', () => {
  const d = pickTrigger({ events: [todoWrite([{ content: 'n', status: 'in_progress' }])], state: state({ consumed: [], frozen: true, completedSeen: 3 }), options: ON });
  assert.equal(d.trigger, null);
  assert.equal(d.state.completedSeen, 0);
  const next = pickTrigger({ events: [todoWrite([{ content: 'n', status: 'completed' }, { content: 'm', status: 'in_progress' }])], state: d.state, options: ON });
  assert.equal(next.trigger?.kind, 'phase-change');
});
