// ↻ 再查 in the packed client half, run through the simulator's client loader like the host runs it:
// hidden on a session that was never compacted, and after a search the seed's two actions —
// 打开原文 (the found passages verbatim) and 知道了 (fold the line away).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { loadClientBundle } from '@engram/dsh-sim';
import { byData, createMiniReact, findAll, settle, textOf, type Element } from './mini-react.ts';

const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'apps/plugin/bundle');

before(() => {
  const run = spawnSync('npm', ['run', '--silent', 'pack:plugin'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `pack:plugin failed:\n${run.stdout}\n${run.stderr}`);
});

const CONFIG = { consoleUrl: 'http://127.0.0.1:3000', proxyPath: '/engram/console/', startPath: '/engram/console-start', recheckPath: '/engram/compaction/recheck', tokenHeader: 'x-engram-token', token: 't'.repeat(40), reachable: true };
const EXCERPT = '## 东京节点端口(对话原文)\n\n用户:东京节点 443 端口被占用了怎么办?\n助手:改用 8443 端口。';

/** A packed client: `compacted` says which sessions the availability route calls compacted. */
function loadClient(compacted: Set<string>, found: boolean, skippedRewrite = false) {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
  const code = readFileSync(join(bundle, pkg.exports['./client']!), 'utf8');
  const mini = createMiniReact();
  const asked: string[] = [];
  const fetch = async (url: string, init?: { method?: string }) => {
    let body: unknown;
    if (url.includes('client-config')) body = CONFIG;
    else if ((init?.method ?? 'GET') === 'GET') {
      const sessionId = new URL(url, 'http://host').searchParams.get('sessionId') ?? '';
      asked.push(sessionId);
      body = { sessionId, available: compacted.has(sessionId) };
    } else body = { ok: true, query: '东京节点现在用哪个端口?', result: { found, skippedRewrite, blocks: found ? [{ title: '东京节点端口' }] : [] }, excerpt: found ? EXCERPT : '' };
    return { ok: true, status: 200, json: async () => body };
  };
  const loaded = loadClientBundle(code, { id: pkg.name, modules: { react: mini.React }, globals: { fetch, location: { protocol: 'http:' }, setTimeout, console } });
  return { action: loaded.slots.of('conversation.chat.assistant-actions')[0]!.component, mini, asked };
}

const click = async (tree: Element, tag: string) => (findAll(tree, byData(tag))[0]!.props.onClick as () => unknown)();

test('↻ 再查 is not shown under answers of a session that was never compacted', async () => {
  const { action, mini, asked } = loadClient(new Set(['session-compacted']), true);
  const plain = await settle(mini, action, { sessionId: 'session-plain', messageId: 'm-1' });
  assert.equal(findAll(plain, byData('recheck-button')).length, 0);
  assert.deepEqual(asked, ['session-plain']);
  mini.reset();
  const compacted = await settle(mini, action, { sessionId: 'session-compacted', messageId: 'm-2' });
  assert.equal(findAll(compacted, byData('recheck-button')).length, 1);
});

test('↻ 再查 that found something offers 打开原文 (the passages verbatim) and 知道了 (folds the line)', async () => {
  const { action, mini } = loadClient(new Set(['s-1']), true);
  const props = { sessionId: 's-1', messageId: 'm-1' };
  await click(await settle(mini, action, props), 'recheck-button');
  let tree = await settle(mini, action, props);
  assert.match(textOf(findAll(tree, byData('recheck-note'))[0]), /找到 1 段/);
  assert.equal(findAll(tree, byData('recheck-excerpt')).length, 0, 'the passages open on request');
  await click(tree, 'recheck-open');
  tree = await settle(mini, action, props);
  assert.equal(textOf(findAll(tree, byData('recheck-excerpt'))[0]), EXCERPT);
  await click(tree, 'recheck-dismiss');
  tree = await settle(mini, action, props);
  assert.equal(findAll(tree, byData('recheck-note')).length, 0);
  assert.equal(findAll(tree, byData('recheck-excerpt')).length, 0);
  assert.equal(findAll(tree, byData('recheck-button')).length, 1, 'the button itself stays');
});

test('↻ 再查 that found nothing says so and offers no 打开原文', async () => {
  const { action, mini } = loadClient(new Set(['s-1']), false);
  const props = { sessionId: 's-1', messageId: 'm-1' };
  await click(await settle(mini, action, props), 'recheck-button');
  const tree = await settle(mini, action, props);
  assert.match(textOf(findAll(tree, byData('recheck-note'))[0]), /未搜索到强相关内容/);
  assert.equal(findAll(tree, byData('recheck-open')).length, 0);
  assert.equal(findAll(tree, byData('recheck-dismiss')).length, 1);
});

test('↻ 再查 whose local search was strong enough says the model rewrite was skipped; otherwise it says nothing of it', async () => {
  const skipped = loadClient(new Set(['s-1']), true, true);
  const props = { sessionId: 's-1', messageId: 'm-1' };
  await click(await settle(skipped.mini, skipped.action, props), 'recheck-button');
  const tree = await settle(skipped.mini, skipped.action, props);
  assert.match(textOf(findAll(tree, byData('recheck-skipped'))[0]), /本地已经直接找到内容,跳过了辅助模型的查询改写\(省一次调用\)/);
  const asked = loadClient(new Set(['s-1']), true, false);
  await click(await settle(asked.mini, asked.action, props), 'recheck-button');
  assert.equal(findAll(await settle(asked.mini, asked.action, props), byData('recheck-skipped')).length, 0);
});
