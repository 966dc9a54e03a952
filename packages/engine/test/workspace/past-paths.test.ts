// Which old folders a workspace's past sessions may have been recorded in (pure), and the registry's
// folders() over real claim records: a folder renamed on disk keeps its sessions.
import assert from 'node:assert/strict';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { movedFromReason, pastPathsOf } from '../../src/workspace/past-paths.ts';
import { WorkspaceRegistry, type WorkspaceClaim } from '../../src/workspace/registry.ts';
import { openTestEngine, tempDirs } from '../engine/helpers.ts';

test('past paths: folders it was renamed from and workspaces merged into it; not moves, pending asks or others', () => {
  const claim = (c: Partial<WorkspaceClaim>): WorkspaceClaim => ({ id: 1, at: '', path: '', workspaceId: 'ws-a', candidates: [], decision: 'new', status: 'applied', reason: '', ...c });
  const claims = [
    claim({ decision: 'claim', path: '/new', reason: movedFromReason('/old', 'strong') }),
    claim({ decision: 'merge', path: '/merged-away' }),
    claim({ decision: 'move', path: 'diary/x.txt' }),
    claim({ decision: 'ask', status: 'pending', path: '/asking' }),
    claim({ decision: 'merge', path: '/other', workspaceId: 'ws-b' }),
    claim({ decision: 'merge', path: '/new' }),
  ];
  assert.deepEqual(pastPathsOf(claims, 'ws-a', '/new'), ['/old', '/merged-away']);
  assert.deepEqual(pastPathsOf([], 'ws-a', '/new'), []);
});

test('registry.folders: the folder, then the one it was renamed from; nothing for global or an unknown id', async (t) => {
  const d = tempDirs();
  const engine = await openTestEngine(d);
  t.after(() => engine.close());
  const before = join(d.root, 'proj-old');
  mkdirSync(join(before, '.git'), { recursive: true });
  // A git remote: the strong fingerprint that recognises the folder after a rename.
  writeFileSync(join(before, '.git', 'config'), '[remote "origin"]\n\turl = https://github.com/me/proj.git\n');
  const registry = new WorkspaceRegistry(engine);
  const first = await registry.resolve(before, { autoClaim: true });
  const after = join(d.root, 'proj-new');
  renameSync(before, after);
  const moved = await registry.resolve(after, { autoClaim: true });
  assert.equal(moved.id, first.id, `${JSON.stringify(moved.decision)}`);
  assert.deepEqual(await registry.folders(first.id), [moved.path, first.path]);
  assert.deepEqual(await registry.folders('global'), []);
  assert.deepEqual(await registry.folders('ws-none'), []);
});
