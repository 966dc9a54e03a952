// Splitting the host config into engine options and plugin-only keys; reading a session. Pure.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitPluginConfig } from '../src/host/core/config.ts';
import { isOwn } from './helpers.ts';
import { lastPersonMessage, visibleEvents, visibleOwnMessages } from '../src/host/sessions/view.ts';
import type { HostEvent } from '../src/host/core/host-types.ts';

test('splitPluginConfig: engine keys pass through, plugin keys are taken out, env fills gaps', () => {
  const { engineOptions, plugin } = splitPluginConfig(
    { diaryDir: '/d', inject: { mode: 'context' }, syncOnOpen: false, watch: false, console: { port: 4000, allowedOrigins: ['http://h'], url: 'http://c:1/', token: 't', command: ['a', 'b'], autoStart: true, basePath: '/engram/console/' } },
    {},
  );
  assert.deepEqual(engineOptions, { diaryDir: '/d', inject: { mode: 'context' }, console: { port: 4000, allowedOrigins: ['http://h'] } });
  assert.deepEqual(plugin, { consoleUrl: 'http://c:1', consoleToken: 't', consoleCommand: ['a', 'b'], autoStartConsole: true, consoleBasePath: '/engram/console', syncOnOpen: false, watch: false, modelAutoInstall: true, modelFrom: '', recallWaitMs: 100 });

  const fromEnv = splitPluginConfig(undefined, { ENGRAM_CONSOLE_URL: 'http://e:2', ENGRAM_CONSOLE_TOKEN: 'et', ENGRAM_CONSOLE_COMMAND: 'engram serve', ENGRAM_CONSOLE_AUTOSTART: '1' });
  assert.deepEqual(fromEnv.engineOptions, {});
  assert.deepEqual(fromEnv.plugin, { consoleUrl: 'http://e:2', consoleToken: 'et', consoleCommand: 'engram serve', autoStartConsole: true, consoleBasePath: '', syncOnOpen: true, watch: true, modelAutoInstall: true, modelFrom: '', recallWaitMs: 100 });
  // model.* is the plugin's (the first-start model install), never an engine option.
  const model = splitPluginConfig({ model: { autoInstall: false, from: ' /models ' }, recall: { kBase: 4 } }, {});
  assert.deepEqual(model.engineOptions, { recall: { kBase: 4 } });
  assert.deepEqual([model.plugin.modelAutoInstall, model.plugin.modelFrom], [false, '/models']);
  assert.deepEqual(
    [splitPluginConfig({}, { ENGRAM_MODEL_AUTO_INSTALL: '0', ENGRAM_MODEL_FROM: '/env-models' }).plugin.modelAutoInstall, splitPluginConfig({}, { ENGRAM_MODEL_FROM: '/env-models' }).plugin.modelFrom],
    [false, '/env-models'],
  );
  // Config beats env for plugin keys (env already beats config for engine keys, in the engine).
  assert.equal(splitPluginConfig({ console: { url: 'http://c:1' } }, { ENGRAM_CONSOLE_URL: 'http://e:2' }).plugin.consoleUrl, 'http://c:1');
});

test('visibleEvents drops what compaction folded away', () => {
  const ev = (seq: number, type = 'user/message', extra: Partial<HostEvent> = {}): HostEvent => ({ seq, type, data: { id: `m${seq}`, content: [], source: { kind: 'plugin', plugin: 'engram', form: 'recall' } }, ...extra });
  const events = [ev(0), ev(1), ev(2), { seq: 3, type: 'compaction/summary', data: { shadowedSeqs: [0, 1] } }, ev(4, 'user/message', { surfaceOp: { op: 'replace', start: 0, end: 2 } }), ev(5)];
  assert.deepEqual(visibleEvents(events).map((e) => e.seq), [3, 4, 5]);
  assert.equal(visibleOwnMessages(events, 'recall').length, 2);
  assert.ok(isOwn({ source: { kind: 'plugin', plugin: 'engram', form: 'recall' } }, 'recall'));
});

test('lastPersonMessage: the newest message a person wrote, by id', () => {
  const m = (id: string, kind: string, text = id) => ({ id, role: 'user', content: [{ type: 'text', text }], source: { kind } });
  assert.deepEqual(lastPersonMessage([m('a', 'user'), m('b', 'plugin'), m('c', 'model')]), { key: 'a', text: 'a' });
  assert.equal(lastPersonMessage([m('b', 'plugin')]), null);
  assert.equal(lastPersonMessage([]), null);
});
