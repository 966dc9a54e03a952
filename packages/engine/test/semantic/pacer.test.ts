import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestPacer } from '../../src/semantic/pacer.ts';

test('the pacer grants starts at least minIntervalMs apart on its own clock, and never more than `concurrency` at once', async () => {
  const pacer = new RequestPacer({ concurrency: 2, minIntervalMs: 15 });
  const grants: number[] = [];
  const lastStart = () => (pacer as unknown as { lastStart: number }).lastStart;
  // Serial: each grant's time is the pacer's own `lastStart`, so the check does not depend on load.
  for (let i = 0; i < 5; i++) {
    const release = await pacer.acquire();
    grants.push(lastStart());
    release();
  }
  for (let i = 1; i < grants.length; i++) assert.ok(grants[i]! - grants[i - 1]! >= 15, `gap ${grants[i]! - grants[i - 1]!}`);

  // Concurrency: a third acquire waits until one of two holders releases.
  const a = await pacer.acquire();
  const b = await pacer.acquire();
  assert.equal(pacer.active, 2);
  let third = false;
  const pending = pacer.acquire().then((r) => {
    third = true;
    return r;
  });
  await new Promise((r) => setTimeout(r, 40));
  assert.equal(third, false, 'no third start while two are in flight');
  a();
  const c = await pending;
  assert.equal(pacer.active, 2);
  b();
  c();
  assert.equal(pacer.active, 0);
});
