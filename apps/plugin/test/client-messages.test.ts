// What the packed client half says when the host's routes fail: the web UI is Chinese-first, so a
// refused, broken or unreachable route gives a Chinese line (with the HTTP status where there is
// one), never the browser's English error text ("Unexpected token '<' … is not valid JSON",
// "Failed to fetch", "… answered 500"). Run through the simulator's client loader, like the host.
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

type Reply = { status: number; text: string } | Error;
const CONFIG = { consoleUrl: 'http://127.0.0.1:3000', proxyPath: '/engram/console/', startPath: '/engram/console-start', recheckPath: '/engram/compaction/recheck', tokenHeader: 'x-engram-token', token: 't'.repeat(40), reachable: true };

/**
 * What the client logged for the developer (console.warn with the error). These tests fail routes on
 * purpose: the lines are kept here and asserted, not printed with their stacks into the test output.
 */
const warned: string[] = [];
const quietConsole = { ...console, warn: (...args: unknown[]) => void warned.push(args.map((a) => (a instanceof Error ? `${a.name}: ${a.message}` : String(a))).join(' ')) };

/** A packed client whose fetch answers `config` for the client config and `recheck` for the route. */
function loadWith(config: Reply, recheck: Reply) {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
  const code = readFileSync(join(bundle, pkg.exports['./client']!), 'utf8');
  const mini = createMiniReact();
  const fetch = async (url: string) => {
    const reply = url.includes('client-config') ? config : recheck;
    if (reply instanceof Error) throw reply;
    return { ok: reply.status < 400, status: reply.status, json: async () => JSON.parse(reply.text), text: async () => reply.text };
  };
  const loaded = loadClientBundle(code, { id: pkg.name, modules: { react: mini.React }, globals: { fetch, location: { protocol: 'http:' }, setTimeout, console: quietConsole } });
  return { loaded, mini };
}


/** Chinese, and no English words once paths and the product name are taken out. */
function assertChinese(text: string, what: string): void {
  assert.match(text, /[\u4e00-\u9fff]/, `${what}: ${JSON.stringify(text)}`);
  assert.doesNotMatch(text.replace(/\/[\w\-./]+/g, '').replace(/\b(Engram|HTTP)\b/g, ''), /[A-Za-z]{2,}/, `${what} carries English: ${JSON.stringify(text)}`);
}

async function recheckNote(config: Reply, recheck: Reply): Promise<string> {
  const { loaded, mini } = loadWith(config, recheck);
  const action = loaded.slots.of('conversation.chat.assistant-actions')[0]!;
  const tree = await settle(mini, action.component, { sessionId: 'session-1', messageId: 'm-1' });
  await (findAll(tree, byData('recheck-button'))[0]!.props.onClick as () => Promise<void>)();
  return textOf(findAll(await settle(mini, action.component, { sessionId: 'session-1', messageId: 'm-1' }), byData('recheck-note'))[0]);
}

const okConfig: Reply = { status: 200, text: JSON.stringify(CONFIG) };

test('"look again": a non-JSON answer (a proxy\'s 502 page) is reported in Chinese with its status', async () => {
  warned.length = 0;
  const note = await recheckNote(okConfig, { status: 502, text: '<html><body>Bad Gateway</body></html>' });
  assertChinese(note, 'non-JSON 502');
  assert.match(note, /502/);
  // The developer's console keeps the route and the status the person sees in Chinese.
  assert.ok(warned.some((w) => /^engram: look again RouteError: .*compaction\/recheck: HTTP 502/.test(w)), warned.join('\n'));
});

test('"look again": a guard refusal (JSON without a known error) names the status in Chinese', async () => {
  const note = await recheckNote(okConfig, { status: 403, text: JSON.stringify({ error: 'origin not allowed' }) });
  assertChinese(note, '403');
  assert.match(note, /403/);
});

test('"look again": an unreachable host and a missing client config are reported in Chinese', async () => {
  assertChinese(await recheckNote(okConfig, new TypeError('Failed to fetch')), 'network failure');
  const noConfig = await recheckNote({ status: 500, text: JSON.stringify({ error: 'x' }) }, { status: 200, text: '{}' });
  assertChinese(noConfig, 'config 500');
  assert.match(noConfig, /500/);
});

test('the console pane: a failing client config is reported in Chinese with its status', async () => {
  const { loaded, mini } = loadWith({ status: 500, text: JSON.stringify({ error: 'x' }) }, { status: 200, text: '{}' });
  const section = loaded.slots.of('settings.section')[0]!;
  const text = textOf(findAll(await settle(mini, section.component, {}), byData('error'))[0]);
  assertChinese(text, 'pane error');
  assert.match(text, /500/);
  const { loaded: l2, mini: m2 } = loadWith(new TypeError('Failed to fetch'), { status: 200, text: '{}' });
  assertChinese(textOf(findAll(await settle(m2, l2.slots.of('settings.section')[0]!.component, {}), byData('error'))[0]), 'pane network error');
});

test('"look again": unknown-session says in Chinese that there is no compacted history to search', async () => {
  // The route finds a compacted session after a host restart too (its state is stored with the
  // compaction memory: compaction-look-again.test.ts), so unknown-session means nothing to search.
  const note = await recheckNote(okConfig, { status: 404, text: JSON.stringify({ ok: false, error: 'unknown-session' }) });
  assert.match(note, /压缩历史/);
  assertChinese(note, 'unknown-session');
});
