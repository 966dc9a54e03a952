// A memory written just after a brief can carry an mtime before that brief's `now` (the kernel stamps
// files from a coarse clock). Red before: it fell outside every later window and was never reported.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatCursor, groupOtherSessions, MTIME_SLACK_MS, parseCursor } from '../../src/crosssession/brief.ts';

const memory = (docId: string, mtimeMs: number, sessionId = 'A') => ({ docId, title: docId, date: '2026-12-03', time: null, summary: '', workspace: 'ws', sessionId, mtimeMs });
const titles = (r: ReturnType<typeof groupOtherSessions>) => r.groups.flatMap((g) => g.items.map((m) => m.title));

test('a memory stamped a tick before the last brief is reported once, and what that brief saw is not reported again', () => {
  const briefAt = 1_000_000;
  const shown = memory('shown', briefAt - 3); // written, then the brief 3 ms later: reported by it
  const cursor = formatCursor(briefAt, [shown]);
  const parsed = parseCursor(cursor);
  assert.equal(parsed.ms, briefAt);
  const late = memory('late', briefAt - 2); // written after the brief, stamped from the coarse clock
  const next = groupOtherSessions([shown, late], 'B', { sinceMs: parsed.ms, nowMs: briefAt + 5_000, seen: parsed.seen });
  assert.deepEqual(titles(next), ['late'], 'the late one is found, the shown one is not repeated');
  const old = memory('old', briefAt - MTIME_SLACK_MS - 1);
  assert.deepEqual(titles(groupOtherSessions([old], 'B', { sinceMs: parsed.ms, nowMs: briefAt + 5_000, seen: parsed.seen })), [], 'older than the slack: reported before');
});

test('a cursor written before the slack was kept (a bare timestamp) still reads', () => {
  const parsed = parseCursor('2026-12-03T00:00:00.000Z');
  assert.equal(parsed.ms, Date.parse('2026-12-03T00:00:00.000Z'));
  assert.equal(parsed.seen.size, 0);
  assert.equal(parseCursor(null).seen.size, 0);
  assert.ok(Number.isNaN(parseCursor(null).ms));
});
