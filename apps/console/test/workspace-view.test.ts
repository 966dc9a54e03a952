// The console's workspace slicing (pure): which memories a workspace filter keeps and how each is
// marked.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemorySummary } from '@engram/engine';
import { filterByWorkspace } from '../src/server/workspace-view.ts';

const memory = (docId: string, workspace: string, extra: Partial<MemorySummary> = {}): MemorySummary =>
  ({ docId, workspace, sessionId: null, origin: '', title: docId, ...extra }) as MemorySummary;

test('a workspace filter keeps its own memories and (optionally) global ones, never another workspace’s', () => {
  const all = [memory('a', 'ws-a'), memory('b', 'ws-b'), memory('g', 'global', { sessionId: '1a2b3c4d-0000', origin: 'agent' })];
  assert.deepEqual(filterByWorkspace(all, undefined, true).map((m) => [m.docId, m.scope]), [['a', 'all'], ['b', 'all'], ['g', 'all']]);
  assert.deepEqual(filterByWorkspace(all, 'ws-a', true).map((m) => [m.docId, m.scope]), [['a', 'workspace'], ['g', 'global']]);
  assert.deepEqual(filterByWorkspace(all, 'ws-a', false).map((m) => m.docId), ['a']);
  assert.deepEqual(filterByWorkspace(all, 'global', false).map((m) => [m.docId, m.scope]), [['g', 'global']]);
  assert.deepEqual(filterByWorkspace(all, 'ws-none', true).map((m) => m.docId), ['g']);
  assert.equal(filterByWorkspace(all, 'ws-a', true)[1]!.provenance, '〔s:1a2b3c4d · 会话写入〕');
  assert.equal(filterByWorkspace(all, 'ws-a', true)[0]!.provenance, '');
});
