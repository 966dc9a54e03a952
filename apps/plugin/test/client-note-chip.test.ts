// A reply that saves a memory shows a 「已记下 · 标题」 chip in the web UI instead of the raw
// `<<<DailyNoteStart>>> … <<<DailyNoteEnd>>>` block. The packed client, run by the simulator's
// client loader with the host's own assistant renderer registered first (the host's
// ui-conversation registers it at 'conversation.chat.node' / 'assistant-step', priority 0;
// packages/client/ui-conversation/src/client/chat/register-node-renderers.ts). What the model
// sees is the session's log, which only the host half reads: the chip works on a copy.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { loadClientBundle } from '@engram/dsh-sim';
import { splitNoteBlocks } from '../src/client/note-chip.ts';
import { byData, createMiniReact, findAll, settle, textOf, type Element } from './mini-react.ts';

const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'apps/plugin/bundle');

before(() => {
  const run = spawnSync('npm', ['run', '--silent', 'pack:plugin'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `pack:plugin failed:\n${run.stdout}\n${run.stderr}`);
});

const NOTE = ['<<<DailyNoteStart>>>', 'command: create', 'title: 东京节点端口改为 8443', 'tags: 东京节点, 端口', '', '[10:20] 东京节点的 443 被 nginx 占用,sing-box 改用 8443。', '<<<DailyNoteEnd>>>'].join('\n');
const ANSWER = `已改好:sing-box 现在监听 8443。\n\n${NOTE}`;

/** The host's native assistant renderer: the text of the node's text blocks. */
function NativeAssistant(props: { node: { data: { blocks: { type: string; text?: string }[] } } }): Element {
  return { type: 'div', props: { 'data-engram-test': 'native', children: [props.node.data.blocks.filter((b) => b.type === 'text').map((b) => b.text).join('\n')] } };
}

/** The host registers its renderer with a locale namespace (register-node-renderers.ts: `locale: NS`). */
const NATIVE_OPTIONS = { name: 'conversation.chat.node', key: 'assistant-step', locale: 'conversation' };

function loadClient() {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
  const code = readFileSync(join(bundle, pkg.exports['./client']!), 'utf8');
  const mini = createMiniReact();
  const loaded = loadClientBundle(code, {
    id: pkg.name,
    modules: { react: mini.React },
    globals: { fetch: async () => ({ ok: true, status: 200, json: async () => ({}) }), location: { protocol: 'http:' }, setTimeout, console },
    hostEntries: [{ options: NATIVE_OPTIONS, component: NativeAssistant }],
  });
  return { loaded, mini };
}

/** Renders the host's native renderer where the plugin's tree names it (mini-react renders one component). */
function expandNative(node: unknown): unknown {
  if (node === null || typeof node !== 'object') return node;
  const e = node as Element;
  if (e.type === NativeAssistant) return NativeAssistant(e.props as never);
  return { ...e, props: { ...e.props, children: (e.props?.children ?? []).map(expandNative) } };
}

const nodeOf = (text: string, status = 'completed') => Object.freeze({ kind: 'assistant-step', data: Object.freeze({ status, blocks: Object.freeze([Object.freeze({ type: 'reasoning', text: '想一想' }), Object.freeze({ type: 'text', text })]) }) });

test('a note block in an answer renders as a 「已记下 · 标题」 chip that opens the note; the message itself is not changed', async () => {
  const { loaded, mini } = loadClient();
  const winner = loaded.slots.winner('conversation.chat.node', 'assistant-step')!;
  assert.notEqual(winner.component, NativeAssistant, 'the plugin shadows the native renderer');
  const node = nodeOf(ANSWER);
  const tree = await settle(mini, winner.component, { node, sessionId: 's-1' });
  const shown = textOf(expandNative(tree));
  assert.doesNotMatch(shown, /<<<DailyNote/);
  assert.match(shown, /已改好:sing-box 现在监听 8443。/, 'the answer is still there, rendered by the host');
  assert.equal(textOf(findAll(tree, byData('note-chip-button'))[0]), '✓ 已记下 · 东京节点端口改为 8443');
  assert.equal(node.data.blocks[1]!.text, ANSWER, 'the message node is left as the host holds it');

  await (findAll(tree, byData('note-chip-button'))[0]!.props.onClick as () => void)();
  const opened = await settle(mini, winner.component, { node, sessionId: 's-1' });
  assert.match(textOf(findAll(opened, byData('note-chip-body'))[0]), /sing-box 改用 8443/);
});

test('the shadow is registered with the native renderer\'s options (its locale), so the host composes the same props (t) the native one needs', () => {
  // Seen in the real 0.1.1-rc.2 web UI: registered without `locale`, the shadow got no `t`, handed that
  // on, and the host's AssistantMarkdown crashed ("t is not a function"): the raw note markup showed.
  const { loaded } = loadClient();
  const winner = loaded.slots.winner('conversation.chat.node', 'assistant-step')! as { options: Record<string, unknown>; component: unknown };
  assert.notEqual(winner.component, NativeAssistant);
  assert.equal(winner.options.locale, NATIVE_OPTIONS.locale);
});

test('an answer without a note renders exactly as the host does; a block still streaming reads 正在记下…', async () => {
  const { loaded, mini } = loadClient();
  const winner = loaded.slots.winner('conversation.chat.node', 'assistant-step')!;
  const plain = nodeOf('没有要记的。');
  const tree = await settle(mini, winner.component, { node: plain });
  assert.equal(findAll(tree, byData('note-chip')).length, 0);
  assert.equal(textOf(expandNative(tree)), '没有要记的。');
  const streaming = nodeOf('好的。\n<<<DailyNoteStart>>>\ncommand: create\ntitle: 写到一半', 'running');
  const partial = await settle(mini, winner.component, { node: streaming });
  assert.doesNotMatch(textOf(expandNative(partial)), /DailyNote|写到一半/);
  assert.equal(textOf(findAll(partial, byData('note-chip-button'))[0]), '✓ 正在记下…');
});

test('a host without the native renderer gets no shadow; a block inside a code fence is an example and stays', () => {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
  const code = readFileSync(join(bundle, pkg.exports['./client']!), 'utf8');
  const loaded = loadClientBundle(code, { id: pkg.name, modules: { react: createMiniReact().React }, globals: { fetch, location: { protocol: 'http:' }, setTimeout, console } });
  assert.equal(loaded.slots.of('conversation.chat.node').length, 0);
  const example = `格式如下:\n\`\`\`\n${NOTE}\n\`\`\``;
  assert.deepEqual(splitNoteBlocks(example), { text: example, notes: [] });
  const two = splitNoteBlocks(`a\n${NOTE}\nb\n${NOTE.replace('create', 'update').replace('title: 东京节点端口改为 8443', 'target: 东京节点的 443 被 nginx 占用')}`);
  assert.equal(two.text, 'a\nb');
  assert.deepEqual(two.notes.map((n) => [n.command, n.label]), [['create', '东京节点端口改为 8443'], ['update', '东京节点的 443 被 nginx 占用']]);
});
