// Rules the real host (sumomok/deepseek-harness 0.1.1-rc.2) enforces and the simulator must too.
// Each test names the host source file the rule comes from, and uses the shape the Engram plugin
// had before issue #12 (what broke in the real host) as the case that must be refused.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createHost, loadClientBundle, schemaViolations } from '../src/index.ts';

const toolPlugin = (output: unknown, value: unknown = { n: 1 }) => ({
  name: 't',
  inject: ['tools'],
  apply(ctx: any) {
    ctx.tools.register({ name: 'probe', description: 'probe', parameters: { type: 'object', properties: {} }, output, execute: () => value });
  },
});

test('tools: output is mandatory, with a schema in the host subset (packages/core/tools/src/index.ts register; json-schema.ts)', async () => {
  await assert.rejects(createHost().load(toolPlugin(undefined)), /must declare output \{ schema, render/);
  await assert.rejects(createHost().load(toolPlugin({ render: () => [] })), /unsupported JSON schema: output.schema must be a schema object/);
  // The old plugin's engram_index declared `minimum` in a schema; outputs may only use the subset.
  await assert.rejects(createHost().load(toolPlugin({ schema: { type: 'integer', minimum: 1 }, render: () => [] })), /minimum is not a supported keyword/);
  assert.deepEqual(schemaViolations({ type: 'object', properties: { a: { type: 'array', items: { type: 'string' } } }, required: ['a'] }), []);
  assert.match(schemaViolations({ type: ['string', 'null'] }).join(), /type arrays are not supported/);
  assert.match(schemaViolations({ type: 'object', required: ['x'] }).join(), /"x" which is not in properties/);
});

test('tools: the value must be lossless JSON and match output.schema (packages/core/tools/src/index.ts createSuccessResult; packages/core/session/src/json.ts)', async () => {
  const render = () => [{ type: 'text', text: 'ok' }];
  const mismatch = createHost();
  await mismatch.load(toolPlugin({ schema: { type: 'object', properties: { n: { type: 'string' } } }, render }));
  const bad = await mismatch.tools!.call('probe', '{}');
  assert.equal(bad.error?.code, 'invalid-output');
  assert.match(bad.text, /returned invalid output: value.n must be string/);

  const lossy = createHost();
  await lossy.load(toolPlugin({ schema: { type: 'object' }, render }, { n: 1, later: undefined }));
  assert.match((await lossy.tools!.call('probe', '{}')).text, /value.later is undefined, not JSON/);

  const fine = createHost();
  await fine.load(toolPlugin({ schema: { type: 'object', properties: { n: { type: 'integer' } } }, render }));
  const ok = await fine.tools!.call('probe', '{}');
  assert.equal(ok.error, undefined);
  assert.deepEqual(ok.content, [{ type: 'text', text: 'ok' }]);
});

test('tools: a string from output.render fails the turn, and every later turn of the session (packages/core/tools/src/index.ts ToolOutputDefinition.render: ContentBlock[])', async () => {
  const host = createHost({ rejectOnTurnError: false });
  // The old plugin's render returned the text itself.
  await host.load(toolPlugin({ schema: { type: 'object' }, render: () => '已记下' }));
  const session = host.createSession();
  const first = await session.userTurn('记一下', [{ toolCalls: [{ name: 'probe', arguments: {} }] }, { text: 'done' }]);
  assert.equal(first.status, 'error');
  assert.match(String((first.error as Error).message), /content\.some is not a function/);
  const requestsBefore = host.requests.length;
  const second = await session.userTurn('继续', [{ text: 'ok' }]);
  assert.equal(second.status, 'error');
  assert.equal(host.requests.length, requestsBefore, 'the later turn fails before a request is sent');
  // Another session is not affected.
  assert.equal((await host.createSession().userTurn('hi', [{ text: 'ok' }])).status, 'completed');
});

const react = { createElement: () => null };
const wrap = (id: string, body: string) => `window.__ModuleLoader__.load({ id: ${JSON.stringify(id)}, factory: (require) => { var module = { exports: {} }; var exports = module.exports; ${body}; return module.exports; } })`;

test('client: a CommonJS file that does not register itself breaks the web UI (packages/client/modules/src/client/system.ts arrive; src/index.ts serveBundle)', () => {
  // What the old pack emitted: a bare CommonJS body.
  assert.throws(() => loadClientBundle('module.exports = { name: "engram", inject: ["slots"], apply() {} };', { id: '@engram/plugin', modules: { react } }), /ReferenceError: module is not defined/);
  assert.throws(() => loadClientBundle('var x = 1;', { id: '@engram/plugin', modules: { react } }), /loaded without registering "@engram\/plugin" via __ModuleLoader__\.load/);
  // Registered under another id than the package name.
  assert.throws(() => loadClientBundle(wrap('engram', 'exports.apply = function () {}'), { id: '@engram/plugin', modules: { react } }), /without registering "@engram\/plugin"/);
  const ok = loadClientBundle(wrap('@engram/plugin', 'exports.name = "engram"; exports.inject = ["slots"]; exports.apply = function () {}'), { id: '@engram/plugin', modules: { react } });
  assert.equal(ok.status, 'active');
});

test('client: require answers only the module table (packages/client/modules/src/client/system.ts makeRequire)', () => {
  assert.throws(() => loadClientBundle(wrap('p', 'require("lodash")'), { id: 'p', modules: { react } }), /require\("lodash"\) missed the module table/);
});

test('client: inject is an array; an object is read as service names and the plugin waits forever (vendor/cordis/src/registry.ts Inject.resolve)', () => {
  const old = loadClientBundle(wrap('p', 'exports.inject = { required: ["slots"], optional: ["sidebarRightTabs"] }; exports.apply = function () { throw new Error("applied") }'), { id: 'p', modules: { react } });
  assert.equal(old.status, 'pending');
  assert.deepEqual(old.waitingFor, ['required', 'optional']);
});

test('client: reading a service that was not injected throws; ctx.inject feature-detects (vendor/cordis/src/reflect.ts)', () => {
  const body = 'exports.inject = ["slots"]; exports.apply = function (ctx) { var t = ctx.sidebarRightTabs; }';
  assert.throws(() => loadClientBundle(wrap('p', body), { id: 'p', modules: { react } }), /cannot get property "sidebarRightTabs" without inject/);
  // Even where the host has the service: it must be injected.
  assert.throws(() => loadClientBundle(wrap('p', body), { id: 'p', modules: { react }, services: { sidebarRightTabs: {} } }), /without inject/);
  const seen: string[] = [];
  const detect = 'exports.inject = ["slots"]; exports.apply = function (ctx) { ctx.inject(["sidebarRightTabs"], function (scoped) { globalThis.seen.push(typeof scoped.sidebarRightTabs) }) }';
  loadClientBundle(wrap('p', detect), { id: 'p', modules: { react }, globals: { seen } });
  assert.deepEqual(seen, [], 'not called where the service is missing');
  loadClientBundle(wrap('p', detect), { id: 'p', modules: { react }, globals: { seen }, services: { sidebarRightTabs: {} } });
  assert.deepEqual(seen, ['object']);
});

test('client: a list slot needs options.id, a keyed one options.key; undeclared slots throw (packages/client/ui-slots/src/index.ts register; kinds from cordis-client-runner/src/client/slot-catalog.ts)', () => {
  const register = (options: string) => wrap('p', `exports.inject = ["slots"]; exports.apply = function (ctx) { ctx.slots.register(${options}, function () { return null }) }`);
  // The old plugin's settings fallback.
  assert.throws(() => loadClientBundle(register('{ name: "settings.section", key: "engram", label: "Engram" }'), { id: 'p', modules: { react } }), /list slot "settings.section" requires options.id/);
  assert.throws(() => loadClientBundle(register('{ name: "tool.call.toolview", id: "x" }'), { id: 'p', modules: { react } }), /keyed slot "tool.call.toolview" requires options.key/);
  assert.throws(() => loadClientBundle(register('{ name: "sidebar.right.pane.tab", key: "engram" }'), { id: 'p', modules: { react } }), /slot "sidebar.right.pane.tab" is not declared/);
  const ok = loadClientBundle(register('{ name: "settings.section", id: "engram", order: 900, label: "Engram" }'), { id: 'p', modules: { react } });
  assert.equal(ok.slots.of('settings.section').length, 1);
});
