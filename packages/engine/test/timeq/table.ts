// Runs a table of [query, expected days (null = not a time), expected matched text] against one
// clock and zone: the parse tests share it.
import assert from 'node:assert/strict';
import { parseTimeExpression } from '../../src/timeq/parse.ts';

export type TimeTable = [query: string, days: string[] | null, matched?: string][];

export function assertTimeTable(table: TimeTable, now: Date, timeZone: string): void {
  for (const [query, days, matched] of table) {
    const got = parseTimeExpression(query, now, timeZone);
    if (days === null) {
      assert.equal(got, null, `${query} → ${JSON.stringify(got)}`);
      continue;
    }
    assert.ok(got, `${query} should be a time expression`);
    assert.deepEqual(got.days, days, query);
    if (matched !== undefined) assert.equal(got.matched, matched, query);
  }
}
