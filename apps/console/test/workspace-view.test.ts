// The console's workspace slicing (pure): which memories a workspace filter keeps and how each is
// marked, and which old folders a workspace's past sessions may have been recorded in.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { MemorySummary, WorkspaceClaim } from '@engram/engine';
import { filterByWorkspace, pastPathsOf } from '../src/server/workspace-view.ts';

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

test('past paths: folders it was renamed from and workspaces merged into it; not moves, pending asks or others', () => {
  const claim = (c: Partial<WorkspaceClaim>): WorkspaceClaim => ({ id: 1, at: '', path: '', workspaceId: 'ws-a', candidates: [], decision: 'new', status: 'applied', reason: '', ...c });
  const claims = [
    claim({ decision: 'claim', path: '/new', reason: 'moved from /old (matched by the strong fingerprint; the old folder is gone)' }),
    claim({ decision: 'merge', path: '/merged-away' }),
    claim({ decision: 'move', path: 'diary/x.txt' }),
    claim({ decision: 'ask', status: 'pending', path: '/asking' }),
    claim({ decision: 'merge', path: '/other', workspaceId: 'ws-b' }),
    claim({ decision: 'merge', path: '/new' }),
  ];
  assert.deepEqual(pastPathsOf(claims, 'ws-a', '/new'), ['/old', '/merged-away']);
  assert.deepEqual(pastPathsOf([], 'ws-a', '/new'), []);
});
