// A reply that saves a memory shows a 「已记下 · 标题」 chip in the web UI instead of the raw
// `<<<DailyNoteStart>>> … <<<DailyNoteEnd>>>` block. The packed client, run by the simulator's
// client loader with the host's own assistant renderer registered first, and each answer rendered
// along the host's real path (host-chat-node.ts: the node shape the host builds, with AssistantBlock
// `kind`s; the keyed slot's winner; the props the host composes; AssistantMarkdown rendering
// `kind: 'text'` blocks). What the model sees is the session's log, which only the host half reads:
// the chip works on a copy.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { loadClientBundle, type SlotEntry } from '@engram/dsh-sim';
import { splitNoteBlocks } from '../src/client/note-chip.ts';
import { assistantStepNode, expandNative, hostProps, hostWinner, NATIVE_ASSISTANT_OPTIONS, NativeAssistantNodeView } from './host-chat-node.ts';
import { byData, createMiniReact, findAll, settle, textOf } from './mini-react.ts';

const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'apps/plugin/bundle');

before(() => {
  const run = spawnSync('npm', ['run', '--silent', 'pack:plugin'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `pack:plugin failed:\n${run.stdout}\n${run.stderr}`);
});

const NOTE = ['<<<DailyNoteStart>>>', 'command: create', 'title: 东京节点端口改为 8443', 'tags: 东京节点, 端口', '', '[10:20] 东京节点的 443 被 nginx 占用,sing-box 改用 8443。', '<<<DailyNoteEnd>>>'].join('\n');
const ANSWER = `已改好:sing-box 现在监听 8443。\n\n${NOTE}`;

function loadClient() {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
  const code = readFileSync(join(bundle, pkg.exports['./client']!), 'utf8');
  const mini = createMiniReact();
  const loaded = loadClientBundle(code, {
    id: pkg.name,
    modules: { react: mini.React },
    globals: { fetch: async () => ({ ok: true, status: 200, json: async () => ({}) }), location: { protocol: 'http:' }, setTimeout, console },
    hostEntries: [{ options: NATIVE_ASSISTANT_OPTIONS, component: NativeAssistantNodeView }],
  });
  return { loaded, mini };
}

/** What the person reads for a node: the host's winner rendered with the props the host composes. */
async function shown(loaded: ReturnType<typeof loadClient>['loaded'], mini: ReturnType<typeof loadClient>['mini'], node: ReturnType<typeof assistantStepNode>) {
  const winner = hostWinner(loaded.slots, node)! as SlotEntry & Record<string, unknown>;
  const props = hostProps(winner, node);
  const tree = await settle(mini, winner.component, props);
  return { winner, props, tree, text: textOf(expandNative(tree)) };
}

/** A settled answer as the host holds it: a reasoning block, then the text (AssistantBlock `kind`s). */
const nodeOf = (text: string, status: 'running' | 'settled' = 'settled') => assistantStepNode([{ kind: 'reasoning', text: '想一想' }, { kind: 'text', text }], status);

test('a note block in an answer renders as a 「已记下 · 标题」 chip that opens the note; the message itself is not changed', async () => {
  // Red before the fix: the shadow looked for blocks of `type: 'text'`, the host's are `kind: 'text'`,
  // so the real 0.1.1-rc.2 UI showed the raw block and no chip.
  const { loaded, mini } = loadClient();
  const node = nodeOf(ANSWER);
  const { winner, props, tree, text } = await shown(loaded, mini, node);
  assert.notEqual(winner.component, NativeAssistantNodeView, 'the plugin shadows the native renderer');
  assert.doesNotMatch(text, /<<<DailyNote|command: create/);
  assert.match(text, /已改好:sing-box 现在监听 8443。/, 'the answer is still there, rendered by the host');
  assert.equal(textOf(findAll(tree, byData('note-chip-button'))[0]), '✓ 已记下 · 东京节点端口改为 8443');
  assert.equal(node.data.blocks[1]!.kind === 'text' && node.data.blocks[1]!.text, ANSWER, 'the message node is left as the host holds it');

  await (findAll(tree, byData('note-chip-button'))[0]!.props.onClick as () => void)();
  const opened = await settle(mini, winner.component, props);
  assert.match(textOf(findAll(opened, byData('note-chip-body'))[0]), /sing-box 改用 8443/);
});

test('the host\'s other blocks pass through: reasoning still renders, a tool-call head stays for the host\'s grouping', async () => {
  const { loaded, mini } = loadClient();
  const node = assistantStepNode([{ kind: 'reasoning', text: '想一想' }, { kind: 'text', text: ANSWER }, { kind: 'tool-call', callId: 'c1', name: 'engram', argsRaw: '{}' }]);
  const { tree, text } = await shown(loaded, mini, node);
  const expanded = expandNative(tree);
  assert.equal(findAll(expanded, (e) => e.props?.['data-host'] === 'think').length, 1);
  assert.doesNotMatch(text, /DailyNote/);
  const handed = findAll(tree, (e) => e.type === NativeAssistantNodeView)[0]!.props.node as typeof node;
  assert.deepEqual(handed.data.blocks.map((b) => b.kind), ['reasoning', 'text', 'tool-call']);
  assert.equal(handed.key, node.key, 'the node keeps its identity fields (key, kind, location)');
});

test('the shadow is registered with the native renderer\'s options (its locale), so the host composes the same props (t) the native one needs', async () => {
  // Seen in the real 0.1.1-rc.2 web UI: registered without `locale`, the shadow got no `t`, handed that
  // on, and the host's AssistantMarkdown crashed ("t is not a function"): the raw note markup showed.
  const { loaded, mini } = loadClient();
  const { winner, tree } = await shown(loaded, mini, nodeOf(ANSWER));
  assert.notEqual(winner.component, NativeAssistantNodeView);
  assert.equal(winner.options.locale, NATIVE_ASSISTANT_OPTIONS.locale);
  const handed = findAll(tree, (e) => e.type === NativeAssistantNodeView)[0]!.props;
  assert.equal(typeof handed.t, 'function');
});

test('an answer without a note renders exactly as the host does; a block still streaming reads 正在记下…', async () => {
  const { loaded, mini } = loadClient();
  const plain = nodeOf('没有要记的。');
  const { tree, text } = await shown(loaded, mini, plain);
  assert.equal(findAll(tree, byData('note-chip')).length, 0);
  assert.equal(text, 'conversation.think没有要记的。');
  assert.equal(findAll(tree, (e) => e.type === NativeAssistantNodeView)[0]!.props.node, plain, 'the host\'s own node, untouched');
  const streaming = nodeOf('好的。\n<<<DailyNoteStart>>>\ncommand: create\ntitle: 写到一半', 'running');
  mini.reset();
  const partial = await shown(loaded, mini, streaming);
  assert.doesNotMatch(partial.text, /DailyNote|写到一半/);
  assert.equal(textOf(findAll(partial.tree, byData('note-chip-button'))[0]), '✓ 正在记下…');
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
