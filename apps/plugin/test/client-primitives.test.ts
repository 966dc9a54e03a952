// The session-header button looks like the host's own where the host offers its primitives: the web
// UI's module loader seeds '@deepseek-ai/dsh-client-ui-primitives' (Button, token-styled; host:
// packages/client/web/src/seed.ts) beside react. Where a host has no such seed (the loader's require
// throws), the client falls back to a plain button. Run through the simulator's client loader.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { before, test } from 'node:test';
import { loadClientBundle } from '@engram/dsh-sim';
import { byData, createMiniReact, findAll } from './mini-react.ts';

const root = resolve(import.meta.dirname, '../../..');
const bundle = join(root, 'apps/plugin/bundle');

before(() => {
  const run = spawnSync('npm', ['run', '--silent', 'pack:plugin'], { cwd: root, encoding: 'utf8' });
  assert.equal(run.status, 0, `pack:plugin failed:\n${run.stdout}\n${run.stderr}`);
  assert.doesNotMatch(run.stderr, /warning/i, 'the client builds without esbuild warnings');
});

function headerTree(modules: Record<string, unknown>) {
  const pkg = JSON.parse(readFileSync(join(bundle, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
  const code = readFileSync(join(bundle, pkg.exports['./client']!), 'utf8');
  const mini = createMiniReact();
  const loaded = loadClientBundle(code, { id: pkg.name, modules: { react: mini.React, ...modules }, globals: { location: { protocol: 'http:' }, setTimeout, console } });
  const header = loaded.slots.of('conversation.session.header.actions')[0]!;
  return mini.render(() => (header.component as (p: unknown) => unknown)({ sessionId: 'session-1' }));
}

test('the header button is the host Button (small; plain while the drawer is closed) where the loader offers the primitives', () => {
  function Button() {
    return null;
  }
  const tree = headerTree({ '@deepseek-ai/dsh-client-ui-primitives': { Button } });
  const open = findAll(tree, byData('open-console'));
  assert.equal(open.length, 1);
  assert.equal(open[0]!.type, Button, 'rendered through the host Button');
  assert.equal(open[0]!.props.variant, 'ghost', 'closed: the plain variant (the filled toolbar capsule reads as pressed)');
  assert.equal(open[0]!.props.size, 'sm');
  assert.equal(typeof open[0]!.props.onClick, 'function');
});

test('without the primitives seed the header button is a plain button', () => {
  const open = findAll(headerTree({}), byData('open-console'));
  assert.equal(open.length, 1);
  assert.equal(open[0]!.type, 'button');
});
