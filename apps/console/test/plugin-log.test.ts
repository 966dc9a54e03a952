// index.pluginLog: the last lines of the plugin's rotating log file under the console's data dir,
// parsed into time / level / message; nothing (and no error) when the plugin never wrote one.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openHarness } from './harness.ts';

test('no plugin log yet: exists false, no lines', async (t) => {
  const h = await openHarness(t);
  const tail = await h.api().index.pluginLog({});
  assert.equal(tail.exists, false);
  assert.deepEqual(tail.lines, []);
  assert.ok(tail.file.endsWith(join('logs', 'engram-plugin.log')));
});

test('the last N lines, newest last, reaching into the rotated file when the current one is short', async (t) => {
  const h = await openHarness(t);
  const dir = join(h.runtime.dataDir, 'logs');
  mkdirSync(dir, { recursive: true });
  const line = (i: number, level = 'INFO') => `2026-12-01T10:00:${String(i).padStart(2, '0')}.000Z ${level} engram recall: ${i} hits for 「第${i}个问题」`;
  writeFileSync(join(dir, 'engram-plugin.log.1'), `${[1, 2, 3].map((i) => line(i)).join('\n')}\n`);
  writeFileSync(join(dir, 'engram-plugin.log'), `${line(4)}\n${line(5, 'WARN')}\n`);
  const api = h.api();
  const tail = await api.index.pluginLog({ lines: 4 });
  assert.equal(tail.exists, true);
  assert.deepEqual(tail.lines.map((l) => l.message.match(/第(\d)个/)?.[1]), ['2', '3', '4', '5']);
  assert.deepEqual(tail.lines.at(-1), { time: '2026-12-01T10:00:05.000Z', level: 'warn', message: 'engram recall: 5 hits for 「第5个问题」' });
  assert.equal((await api.index.pluginLog({ lines: 2 })).lines.length, 2, 'the current file alone is enough');
});
