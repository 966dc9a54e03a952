// Session times are shown in the zone the data directory was set up in (the engine's stored zone),
// not the zone the process happens to run in: the same history reads the same after a move or
// under TZ=UTC. Two zones 14 hours apart make every figure differ whatever zone the test runs in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatSessionList, sessionReadPage, renderTurn } from '../../src/sessions/read.ts';
import { zonedStamp } from '../../src/timeq/calendar.ts';
import type { SessionListItem } from '../../src/sessions/list.ts';
import type { SessionLog, SessionTurn } from '../../src/sessions/log.ts';

const AT = Date.UTC(2026, 10, 30, 16, 30); // 2026-11-30 16:30 UTC = 12-01 00:30 in Shanghai, 11-30 06:30 in Honolulu

test('zonedStamp: the date and time of an instant in a named zone; an unknown zone is this machine’s', () => {
  assert.deepEqual(zonedStamp(AT, 'Asia/Shanghai'), { date: '2026-12-01', time: '00:30' });
  assert.deepEqual(zonedStamp(AT, 'Pacific/Honolulu'), { date: '2026-11-30', time: '06:30' });
  assert.deepEqual(zonedStamp(AT, 'UTC'), { date: '2026-11-30', time: '16:30' });
  const machine = new Date(AT);
  const pad = (n: number) => String(n).padStart(2, '0');
  assert.deepEqual(zonedStamp(AT, 'Not/AZone'), { date: `${machine.getFullYear()}-${pad(machine.getMonth() + 1)}-${pad(machine.getDate())}`, time: `${pad(machine.getHours())}:${pad(machine.getMinutes())}` });
  assert.equal(zonedStamp(Date.UTC(2026, 0, 1, 0, 5), 'UTC').time, '00:05', 'midnight is 00, not 24');
});

test('the session list, a session’s head and its turns show times in the given zone', () => {
  const turn = { turn: 1, user: '端口是多少', assistant: '8080', thinking: '', tools: [], startedAt: AT + 60_000 } as unknown as SessionTurn;
  const log = { id: 'a1a1a1a1-0000', title: '端口排查', cwd: '/work', startedAt: AT, endedAt: AT + 3_600_000, turns: [turn], damage: { badFrames: 0, badLines: 0 } } as unknown as SessionLog;
  const item = { id: log.id, title: log.title, turns: 1, startedAt: AT, mtimeMs: AT, damaged: false } as unknown as SessionListItem;

  assert.match(formatSessionList([item], { maxChars: 2000, timeZone: 'Asia/Shanghai' }), /2026-12-01 00:30/);
  assert.match(formatSessionList([item], { maxChars: 2000, timeZone: 'Pacific/Honolulu' }), /2026-11-30 06:30/);
  const page = sessionReadPage(log, { maxChars: 4000, timeZone: 'Asia/Shanghai' }).text;
  assert.match(page, /2026-12-01 00:30 – 01:30/, 'the span, one day in Shanghai');
  assert.match(page, /第 1 轮 · 00:31/);
  assert.match(sessionReadPage(log, { maxChars: 4000, timeZone: 'Pacific/Honolulu' }).text, /2026-11-30 06:30 – 07:30/);
  assert.match(renderTurn(turn, 'raw', 'Pacific/Honolulu'), /06:31/, 'the raw view too');
});
