// The search filters as pure functions: inline `key:value` filters in a query, their merge with
// explicit ones, and which memories and hits pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filterHits, filterProblem, mergeFilters, parseInlineFilters, passesSearchFilter } from '../../src/search/filters.ts';

test('inline filters leave the query words; a value that cannot be its filter stays a word', () => {
  assert.deepEqual(parseInlineFilters('部署 tag:东京 tag:节点 from:2026-09 to:2026 min:0.5 arch:1 cat:运维 ws:global'), {
    query: '部署',
    filter: { tags: ['东京', '节点'], from: '2026-09', to: '2026', minScore: 0.5, archived: true, category: '运维', workspace: 'global' },
  });
  assert.deepEqual(parseInlineFilters('error from:server min:high'), { query: 'error from:server min:high', filter: {} });
  assert.deepEqual(parseInlineFilters('http://a.b/c'), { query: 'http://a.b/c', filter: {} }, 'a URL is not a filter');
});

test('explicit filters win over inline ones; tags add up', () => {
  assert.deepEqual(mergeFilters({ tags: ['a'], from: '2026-01' }, { tags: ['b'], from: '2026-02', minScore: 0.3 }), { tags: ['a', 'b'], from: '2026-02', minScore: 0.3 });
});

test('a month or year bound includes all of it; from after to is refused', () => {
  const m = { date: '2026-03-31', category: '', tags: [], workspace: 'global' };
  assert.equal(passesSearchFilter(m, { to: '2026-03' }), true);
  assert.equal(passesSearchFilter(m, { to: '2026-02' }), false);
  assert.equal(passesSearchFilter(m, { from: '2026', to: '2026' }), true);
  assert.match(filterProblem({ from: '2026-04', to: '2026-03' }) ?? '', /after/);
  assert.match(filterProblem({ from: '上个月' }) ?? '', /YYYY/);
  assert.equal(filterProblem({ from: '2026-04-01', to: '2026-04' }), null);
});

test('minScore is relative to the best hit, and the first k that pass are kept in order', () => {
  const hit = (score: number, tags: string[] = []) => ({ date: '2026-01-01', category: '', tags, workspace: 'global', score });
  const hits = [hit(1, ['x']), hit(0.8), hit(0.5, ['x']), hit(0.2, ['x'])];
  assert.deepEqual(filterHits(hits, { minScore: 0.5 }, 10).map((h) => h.score), [1, 0.8, 0.5]);
  assert.deepEqual(filterHits(hits, { tags: ['x'] }, 2).map((h) => h.score), [1, 0.5]);
});
