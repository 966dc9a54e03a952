// agent.inbox is the host's queue of pending user input: anything put there is claimed at the next
// step as a new input and costs another model request. The plugin appends to decision.messages
// instead. The mutation half puts the old mistake back and checks the suite's assertions go red.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Deliver } from '../src/host/apply.ts';
import { assertOneInjectionNoInbox, loadPlugin, recallMessages } from './helpers.ts';

/** The mistake: hand the step's messages to the inbox and return the decision untouched. */
const deliverThroughInbox: Deliver = (payload, decision, messages) => {
  const inbox = (payload.agent as { inbox: { append(m: unknown, target?: string): void } }).inbox;
  for (const message of messages) inbox.append(message, 'next-step');
  return decision;
};

// A reply without tool calls would end the turn: anything left in the inbox forces another request.
const SCRIPT = [{ text: '好的' }];
const TOOL_SCRIPT = [{ toolCalls: [{ name: 'engram_status', arguments: {} }] }, { text: '好的' }];

test('with a working inbox, the plugin still never uses it: one request per script step, one block', async (t) => {
  const { host } = await loadPlugin(t, { host: { inbox: 'working' } });
  const session = host.createSession();
  for (const [question, script, title] of [['周报怎么写?', SCRIPT, '周报写作流程'], ['东京节点的端口是多少', TOOL_SCRIPT, '东京节点端口处置']] as const) {
    const turn = await session.userTurn(question, [...script]);
    assertOneInjectionNoInbox(host, turn, script.length, title);
  }
  assert.equal(session.workingInbox!.length, 0);
  await host.settle();
  host.assertClean();
});

test('mutation: delivering through a working inbox costs an extra request and the assertions go red', async (t) => {
  const { host } = await loadPlugin(t, { host: { inbox: 'working' }, deps: { deliver: deliverThroughInbox } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', SCRIPT);
  // The mechanism of the bug, observed: the block was claimed as a new input, so the model was asked again.
  assert.ok(turn.requests.length > SCRIPT.length, `expected an extra request, got ${turn.requests.length}`);
  assert.equal(recallMessages(turn.requests[0]!).length, 0, 'the block missed the step of the question');
  assert.throws(() => assertOneInjectionNoInbox(host, turn, SCRIPT.length, '周报写作流程'), assert.AssertionError);
});

test('mutation: in a turn with tool calls the inbox item rides into the next step; still red', async (t) => {
  const { host } = await loadPlugin(t, { host: { inbox: 'working' }, deps: { deliver: deliverThroughInbox } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', TOOL_SCRIPT);
  assert.throws(() => assertOneInjectionNoInbox(host, turn, TOOL_SCRIPT.length, '周报写作流程'), assert.AssertionError);
});

test('mutation: against the default sentinel inbox the touch is recorded and the assertions go red', async (t) => {
  const { host } = await loadPlugin(t, { deps: { deliver: deliverThroughInbox } });
  const session = host.createSession();
  const turn = await session.userTurn('周报怎么写?', SCRIPT);
  assert.ok(host.inboxViolations.length > 0);
  assert.throws(() => assertOneInjectionNoInbox(host, turn, SCRIPT.length, '周报写作流程'), /agent\.inbox/);
  assert.throws(() => host.assertClean(), /agent\.inbox/);
  // Even this broken delivery did not break the conversation: the hook caught it.
  assert.equal(turn.status, 'completed');
});
