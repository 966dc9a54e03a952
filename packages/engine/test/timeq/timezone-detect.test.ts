// With TZ unset, a machine whose ICU cannot name its zone (a container with a copied /etc/localtime,
// no zoneinfo folder) made Intl answer UTC, so 「昨天」 was the UTC yesterday for a user in Shanghai.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { localDay, formatYmd } from '../../src/timeq/calendar.ts';
import { detectTimeZone, type ZoneProbe } from '../../src/timeq/timezone.ts';

const probe = (over: Partial<ZoneProbe>): ZoneProbe => ({
  env: () => undefined,
  intl: () => 'UTC',
  readLink: () => null,
  readText: () => null,
  ...over,
});
// A TZif v2 file ends with its POSIX rule between newlines: Shanghai is "CST-8".
const tzif = (rule: string) => `TZif2\0\0\0binary\n${rule}\n`;

test('TZ, when set, is the zone (UTC included)', () => {
  assert.equal(detectTimeZone(probe({ env: () => 'Asia/Shanghai' })), 'Asia/Shanghai');
  assert.equal(detectTimeZone(probe({ env: () => 'UTC', readLink: () => '/usr/share/zoneinfo/Asia/Shanghai' })), 'UTC');
});

test('a zone Intl names is kept', () => {
  assert.equal(detectTimeZone(probe({ intl: () => 'Europe/Berlin', readLink: () => '/usr/share/zoneinfo/Asia/Shanghai' })), 'Europe/Berlin');
});

test('with no TZ and Intl saying UTC, the system files name the zone', () => {
  assert.equal(detectTimeZone(probe({ readLink: (p) => (p === '/etc/localtime' ? '/usr/share/zoneinfo/Asia/Shanghai' : null) })), 'Asia/Shanghai');
  assert.equal(detectTimeZone(probe({ readLink: () => '../usr/share/zoneinfo/Asia/Shanghai' })), 'Asia/Shanghai', 'a relative link');
  assert.equal(detectTimeZone(probe({ intl: () => undefined, readText: (p) => (p === '/etc/timezone' ? 'Asia/Shanghai\n' : null) })), 'Asia/Shanghai');
  assert.equal(detectTimeZone(probe({ intl: () => 'Etc/Unknown', readText: (p) => (p === '/etc/localtime' ? tzif('CST-8') : null) })), 'Etc/GMT-8', 'only the rule: a fixed offset');
  assert.equal(detectTimeZone(probe({ readText: (p) => (p === '/etc/localtime' ? tzif('EST5EDT,M3.2.0,M11.1.0') : null) })), 'Etc/GMT+5');
});

test('a machine really on UTC, or one that tells nothing, stays UTC', () => {
  assert.match(detectTimeZone(probe({ readLink: () => '/usr/share/zoneinfo/Etc/UTC', readText: (p) => (p === '/etc/timezone' ? 'Etc/UTC\n' : tzif('UTC0')) })), /^(Etc\/)?UTC$/);
  assert.equal(detectTimeZone(probe({})), 'UTC');
  assert.equal(detectTimeZone(probe({ readText: (p) => (p === '/etc/timezone' ? 'Not/AZone\n' : null) })), 'UTC');
});

test('the detected fixed offset gives the Shanghai day where UTC gives the day before', () => {
  const zone = detectTimeZone(probe({ readText: (p) => (p === '/etc/localtime' ? tzif('CST-8') : null) }));
  const newYear = new Date('2025-12-31T17:00:00Z');
  assert.equal(formatYmd(localDay(newYear, zone)), formatYmd(localDay(newYear, 'Asia/Shanghai')));
  assert.notEqual(formatYmd(localDay(newYear, zone)), formatYmd(localDay(newYear, 'UTC')));
});
