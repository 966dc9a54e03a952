import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getMeta, setMeta } from '@engram/db';
import { usableTimeZone } from '../../src/timeq/calendar.ts';
import { detectTimeZone, zoneShaped } from '../../src/timeq/timezone.ts';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

test('a stored zone the runtime does not know reads as this machine’s; a known one is kept', async () => {
  const dirs = tempDirs();
  const first = await openTestEngine(dirs);
  assert.equal(await getMeta(first.db, 'timeZone'), detectTimeZone(), 'the first run stores the detected zone');
  await setMeta(first.db, 'timeZone', 'Mars/Olympus_Mons');
  first.close();
  let engine = await openTestEngine(dirs);
  assert.equal(engine.timeZone, detectTimeZone(), 'shaped like a zone, unknown to ICU: the machine’s zone');
  await setMeta(engine.db, 'timeZone', 'America/New_York');
  engine.close();
  engine = await openTestEngine(dirs);
  assert.equal(engine.timeZone, 'America/New_York');
  engine.close();
});

test('zoneShaped accepts IANA names and refuses what cannot be one', () => {
  for (const z of ['UTC', 'Asia/Shanghai', 'America/Argentina/Buenos_Aires', 'Etc/GMT+8', 'Etc/GMT-14']) assert.ok(zoneShaped(z), z);
  for (const z of ['', '/Asia', 'Asia/', 'Asia Shanghai', '../../etc', 'x'.repeat(65)]) assert.equal(zoneShaped(z), false, z);
});

test('usableTimeZone: canonical zones, UTC and aliases are kept, a name ICU does not know is not', () => {
  for (const z of ['UTC', 'Asia/Shanghai', 'America/New_York', 'Etc/GMT-8', 'Asia/Calcutta', 'US/Eastern', 'Etc/UTC']) assert.equal(usableTimeZone(z), z, z);
  for (const z of ['Mars/Olympus_Mons', 'Asia/Shanghai ', 'utc/x', '']) assert.equal(usableTimeZone(z), undefined, z);
  assert.equal(usableTimeZone(undefined), undefined);
});
