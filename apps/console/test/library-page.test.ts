import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareForLibrary, pageOfMemories, pageInput, type PageableMemory } from '../src/shared/library-page.ts';

const mem = (over: Partial<PageableMemory> & { docId: string }): PageableMemory => ({
  title: over.docId,
  summary: '',
  path: `${over.docId}.txt`,
  category: '',
  tags: [],
  sessionId: null,
  pinned: false,
  date: '2026-10-01',
  time: '10:00',
  ...over,
});

test('same-day memories are in time order, newest first; pinned ones lead', () => {
  const list = [
    mem({ docId: 'morning', time: '08:05' }),
    mem({ docId: 'evening', time: '21:40' }),
    mem({ docId: 'noon', time: '12:00' }),
    mem({ docId: 'yesterday', date: '2026-09-30', time: '23:59' }),
    mem({ docId: 'pinned-old', date: '2020-01-01', pinned: true }),
  ];
  const order = [...list].sort(compareForLibrary).map((m) => m.docId);
  assert.deepEqual(order, ['pinned-old', 'evening', 'noon', 'morning', 'yesterday']);
});

test('search needs every word, looks in title, summary, tags and path; paging slices the ordered result', () => {
  const list = Array.from({ length: 250 }, (_, i) => mem({ docId: `m${i}`, title: i % 2 ? `令牌桶 ${i}` : `晨跑 ${i}`, tags: i % 10 === 0 ? ['限流'] : [], date: `2026-01-${String((i % 28) + 1).padStart(2, '0')}` }));
  const input = pageInput.parse({ query: '令牌桶', limit: 50 });
  const first = pageOfMemories(list, input);
  assert.equal(first.total, 125);
  assert.equal(first.scopeTotal, 250);
  assert.equal(first.items.length, 50);
  const second = pageOfMemories(list, { ...input, offset: 50 });
  assert.equal(new Set([...first.items, ...second.items].map((m) => m.docId)).size, 100, 'pages do not overlap');
  assert.ok(first.items.every((m) => m.title.includes('令牌桶')));
  assert.equal(pageOfMemories(list, pageInput.parse({ query: '令牌桶 限流' })).total, 0, 'odd titles never carry the 限流 tag');
  assert.equal(pageOfMemories(list, pageInput.parse({ query: '晨跑 限流' })).total, 25);
  assert.equal(pageOfMemories(list, pageInput.parse({ tag: '限流' })).total, 25);
  assert.deepEqual(first.tags, [['限流', 25]], 'facets count the scope, not the page');
});

test('page limits are bounded', () => {
  assert.throws(() => pageInput.parse({ limit: 10_000 }));
  assert.throws(() => pageInput.parse({ offset: -1 }));
});
