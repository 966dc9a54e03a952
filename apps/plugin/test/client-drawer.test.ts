// The 记忆 header entry and its drawer, on a host without the right-sidebar tab (0.1.1-rc.2):
// - the button reads as pressed only while the drawer is open (the host Button's 'toolbar' variant is
//   a filled capsule; 'ghost' is its plain one; toggles say their state with aria-pressed);
// - the drawer never lies over the conversation where the host would lay a panel beside it (the
//   host's column rule, ui-layout columns.ts): there it narrows the host page by its own width;
// - a console that cannot start is said in Chinese, naming the plugin's log file.
// Run through the simulator's client loader on the packed client file, like the host.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { loadClientBundle } from '@engram/dsh-sim';
import { drawerPlacement, HOST_CENTER_MIN, HOST_PANEL_MAX, HOST_PANEL_MIN, HOST_SIDEBAR_RAIL, reserveBeside } from '../src/client/drawer.ts';
import { byData, createMiniReact, findAll, settle, textOf } from './mini-react.ts';

const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'apps/plugin/bundle');

before(() => {
  const run = spawnSync('npm', ['run', '--silent', 'pack:plugin'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `pack:plugin failed:\n${run.stdout}\n${run.stderr}`);
});

const CONFIG = {
  consoleUrl: 'http://127.0.0.1:3000', proxyPath: '/engram/console/', startPath: '/engram/console-start', recheckPath: '/engram/compaction/recheck',
  logsPath: '/engram/logs', tokenHeader: 'x-engram-token', token: 't'.repeat(40), reachable: true, startable: true, viewPath: '/engram/view',
};
const LOG_FILE = '/home/me/.engram/logs/engram-plugin.log';

type Route = (init?: { method?: string }) => { status: number; body: unknown };

function load(options: { innerWidth?: number; routes?: Record<string, Route>; Button?: unknown } = {}) {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
  const code = readFileSync(join(bundle, pkg.exports['./client']!), 'utf8');
  const mini = createMiniReact();
  const hostRoot = { style: { marginRight: '' } };
  const document = { getElementById: (id: string) => (id === 'root' ? hostRoot : null), body: null };
  const routes = options.routes ?? {};
  const fetch = async (url: string, init?: { method?: string }) => {
    const path = url.split('?')[0]!;
    const answer = routes[path]?.(init) ?? (path === '/engram/client-config' ? { status: 200, body: CONFIG } : { status: 404, body: {} });
    return { ok: answer.status < 400, status: answer.status, json: async () => answer.body };
  };
  const modules: Record<string, unknown> = { react: mini.React };
  if (options.Button) modules['@deepseek-ai/dsh-client-ui-primitives'] = { Button: options.Button };
  const loaded = loadClientBundle(code, {
    id: pkg.name,
    modules,
    globals: { fetch, document, innerWidth: options.innerWidth ?? 1440, addEventListener() {}, removeEventListener() {}, location: { protocol: 'http:' }, setTimeout: (fn: () => void) => setImmediate(fn), console },
  });
  return { loaded, mini, hostRoot };
}

const header = (loaded: ReturnType<typeof load>['loaded']) => loaded.slots.of('conversation.session.header.actions')[0]!.component;

test('the 记忆 button looks pressed only while the drawer is open (host Button variant and aria-pressed)', async () => {
  function Button() {
    return null;
  }
  const { loaded, mini } = load({ Button });
  let tree = await settle(mini, header(loaded), { sessionId: 'session-1' });
  let button = findAll(tree, byData('open-console'))[0]!;
  assert.equal(button.type, Button);
  assert.notEqual(button.props.variant, 'toolbar', 'closed: not the filled toolbar capsule');
  assert.equal(button.props['aria-pressed'], false);
  (button.props.onClick as () => void)();
  tree = await settle(mini, header(loaded), { sessionId: 'session-1' });
  button = findAll(tree, byData('open-console'))[0]!;
  assert.equal(findAll(tree, byData('drawer')).length, 1, 'the click opens the drawer');
  assert.equal(button.props['aria-pressed'], true);
  assert.equal(button.props.variant, 'toolbar', 'open: the filled capsule');
});

test('drawer placement follows the host columns: beside the messages wherever the host has room for a panel, over them only below', () => {
  for (let viewport = 320; viewport <= 2560; viewport += 8) {
    const hostHasRoom = viewport - HOST_SIDEBAR_RAIL - HOST_CENTER_MIN >= HOST_PANEL_MIN;
    const placed = drawerPlacement(viewport);
    assert.equal(placed.mode, hostHasRoom ? 'beside' : 'over', `at ${viewport}px`);
    assert.ok(placed.width <= viewport, `fits the window at ${viewport}px`);
    if (placed.mode === 'beside') {
      assert.ok(placed.width >= HOST_PANEL_MIN && placed.width <= HOST_PANEL_MAX, `a panel's width at ${viewport}px`);
      assert.ok(viewport - placed.width >= HOST_SIDEBAR_RAIL + HOST_CENTER_MIN, `the conversation keeps its floor at ${viewport}px`);
    }
  }
  const narrowest = drawerPlacement(HOST_SIDEBAR_RAIL + HOST_CENTER_MIN + HOST_PANEL_MIN);
  assert.equal(narrowest.mode, 'beside');
});

test('beside: the open drawer narrows the host page by its width, and closing gives the page back', async () => {
  const { loaded, mini, hostRoot } = load({ innerWidth: 1440 });
  let tree = await settle(mini, header(loaded), { sessionId: 'session-1' });
  (findAll(tree, byData('open-console'))[0]!.props.onClick as () => void)();
  tree = await settle(mini, header(loaded), { sessionId: 'session-1' });
  const drawer = findAll(tree, byData('drawer'))[0]!;
  const width = drawerPlacement(1440).width;
  assert.equal(drawer.props['data-placement'], 'beside');
  assert.equal((drawer.props.style as { width: string }).width, `${width}px`);
  assert.equal(hostRoot.style.marginRight, `${width}px`, 'the host page made room');
  // The restore the effect returns (the mini React keeps no cleanups): the page's own value comes back.
  const page = { style: { marginRight: '4px' } };
  const restore = reserveBeside({ getElementById: () => page }, 300);
  assert.equal(page.style.marginRight, '300px');
  restore();
  assert.equal(page.style.marginRight, '4px');
});

test('over: a narrow window gets a sheet over the messages and the host page is left alone', async () => {
  const { loaded, mini, hostRoot } = load({ innerWidth: 800 });
  let tree = await settle(mini, header(loaded), { sessionId: 'session-1' });
  (findAll(tree, byData('open-console'))[0]!.props.onClick as () => void)();
  tree = await settle(mini, header(loaded), { sessionId: 'session-1' });
  assert.equal(findAll(tree, byData('drawer'))[0]!.props['data-placement'], 'over');
  assert.equal(hostRoot.style.marginRight, '');
});

const pane = (loaded: ReturnType<typeof load>['loaded']) => loaded.slots.of('settings.section')[0]!.component;

test('the pane says in Chinese that it is loading, and no start button shows where no console.command is set', async () => {
  const { loaded, mini } = load({ routes: { '/engram/client-config': () => ({ status: 200, body: { ...CONFIG, reachable: false, startable: false } }) } });
  const first = mini.render(() => (pane(loaded) as (p: unknown) => unknown)({}));
  assert.match(textOf(findAll(first, byData('loading'))[0]), /正在/);
  const tree = await settle(mini, pane(loaded), {});
  assert.equal(findAll(tree, byData('start')).length, 0, 'nothing to start with');
  assert.match(textOf(findAll(tree, byData('source'))[0]), /简易视图/);
});

test('a console that cannot start is said in Chinese and names the plugin log file', async () => {
  const logs: Route = () => ({ status: 200, body: { file: LOG_FILE, lines: [] } });
  // The start route refuses (spawn failed).
  const failed = load({
    routes: {
      '/engram/client-config': () => ({ status: 200, body: { ...CONFIG, reachable: false } }),
      '/engram/console-start': () => ({ status: 500, body: { ok: false, state: 'failed', message: 'spawn node ENOENT' } }),
      '/engram/logs': logs,
    },
  });
  let tree = await settle(failed.mini, pane(failed.loaded), {});
  await (findAll(tree, byData('start'))[0]!.props.onClick as () => Promise<void>)();
  tree = await settle(failed.mini, pane(failed.loaded), {});
  let note = textOf(findAll(tree, byData('note'))[0]);
  assert.match(note, /控制台/);
  assert.ok(note.includes(LOG_FILE), note);

  // The process starts but the console never answers (it exited, or is still building).
  const silent = load({
    routes: {
      '/engram/client-config': () => ({ status: 200, body: { ...CONFIG, reachable: false } }),
      '/engram/console-start': () => ({ status: 200, body: { ok: true, state: 'started', pid: 42 } }),
      '/engram/logs': logs,
    },
  });
  tree = await settle(silent.mini, pane(silent.loaded), {});
  await (findAll(tree, byData('start'))[0]!.props.onClick as () => Promise<void>)();
  tree = await settle(silent.mini, pane(silent.loaded), {});
  note = textOf(findAll(tree, byData('note'))[0]);
  assert.match(note, /没有回应|没能启动/);
  assert.ok(note.includes(LOG_FILE), note);
});
