// The browser tests skip on a machine without Chromium (a quick run while working), but under CI a
// missing Chromium fails them, as a missing real model fails the model's tests: a green CI must have
// run the console in a real browser.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '..');
const load = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "await import('./e2e/console-in-chromium.ts')"], {
    cwd: root,
    env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium', CI: '', ...env },
    encoding: 'utf8',
  });

test('without Chromium the browser fixture loads (its tests skip), except under CI where it fails and says what to install', () => {
  const quick = load({});
  assert.equal(quick.status, 0, quick.stderr);
  const ci = load({ CI: 'true' });
  assert.notEqual(ci.status, 0);
  assert.match(ci.stderr, /CI must run the browser tests: no Chromium at \/nonexistent\/chromium/);
  assert.match(ci.stderr, /apt-get install chromium/);
});
