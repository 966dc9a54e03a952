// Remove / restore / purge of compaction memory through the console's tRPC API, against a real
// engine: the trash keeps what is removed while compaction.trash is on, restore brings it back,
// purge empties it, with the setting off a removal is for good, and each action leaves an audit line.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CompactionMemory, openEngine } from '@engram/engine';
import { runtimeFor } from '../src/server/engine.ts';
import { createCaller } from '../src/server/root.ts';
import { createContext } from '../src/server/trpc.ts';

async function setup(t: { after(fn: () => unknown): void }) {
  const root = mkdtempSync(join(tmpdir(), 'engram-console-trash-'));
  const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root }, createDiaryDir: true });
  t.after(() => {
    engine.close();
    rmSync(root, { recursive: true, force: true });
  });
  const memory = new CompactionMemory({ database: engine.database, dataDir: engine.config.dataDir, tokenizer: engine.tokenizer, config: () => engine.config });
  const scope = { workspace: '/w', sessionId: 's1' };
  const events = [
    { type: 'user/message', seq: 0, data: { content: [{ type: 'text', text: '东京节点端口被占用怎么办?' }], source: { kind: 'user' } } },
    { type: 'assistant/message', seq: 1, data: { message: { content: [{ type: 'text', text: '改用 8443 端口。结论:端口定为 8443。' }] } } },
    { type: 'user/message', seq: 2, data: { content: [{ type: 'text', text: '备份脚本放在哪里?' }], source: { kind: 'user' } } },
    { type: 'assistant/message', seq: 3, data: { message: { content: [{ type: 'text', text: '放在 scripts/backup.sh,每天凌晨三点跑。' }] } } },
  ];
  await memory.ingest({ scope, compactionId: 'c1', summary: '## 端口\n决定改用 8443。\n## 备份\n脚本在 scripts/backup.sh。', shadowedSeqs: [0, 1, 2, 3], events });
  const caller = createCaller(createContext(await runtimeFor(engine)));
  return { engine, caller, scope, memory };
}

test('remove goes to the trash, restore brings it back, purge empties the trash; one audit line each', async (t) => {
  const { caller, scope } = await setup(t);
  const before = await caller.compaction.session(scope);
  assert.ok(before.blocks.length >= 1);
  const id = before.blocks[0]!.id;

  const removed = await caller.compactionTrash.remove({ ...scope, ids: [id] });
  assert.equal(removed.trashed, true);
  assert.equal(removed.count, 1);
  assert.equal(removed.audit?.action, 'trash');
  let now = await caller.compaction.session(scope);
  assert.ok(!now.blocks.some((b) => b.id === id) && now.trashed.some((b) => b.id === id), 'in the trash, out of the live blocks');

  const restored = await caller.compactionTrash.restore({ ...scope, ids: [id] });
  assert.equal(restored.count, 1);
  assert.equal(restored.audit?.action, 'restore');
  now = await caller.compaction.session(scope);
  assert.deepEqual(new Set(now.blocks.map((b) => b.id)), new Set(before.blocks.map((b) => b.id)));
  assert.equal(now.trashed.length, 0);

  await caller.compactionTrash.remove({ ...scope, ids: [id] });
  const purged = await caller.compactionTrash.purge({ ...scope, ids: null });
  assert.equal(purged.count, 1);
  assert.equal(purged.audit?.action, 'purge');
  now = await caller.compaction.session(scope);
  assert.equal(now.trashed.length, 0);
  assert.equal((await caller.compactionTrash.restore({ ...scope, ids: [id] })).count, 0, 'what is purged cannot come back');
  assert.deepEqual((await caller.compaction.session(scope)).audit.map((a) => a.action).slice(0, 5).reverse(), ['trash', 'restore', 'trash', 'purge', 'restore']);
});

test('with compaction.trash off a removal is for good, and the answer says so', async (t) => {
  const { engine, caller, scope } = await setup(t);
  const saved = await engine.saveSettings({ compaction: { trash: false } });
  assert.equal(saved.ok, true);
  const [block] = (await caller.compaction.session(scope)).blocks;
  const removed = await caller.compactionTrash.remove({ ...scope, ids: [block!.id] });
  assert.equal(removed.trashed, false);
  assert.equal(removed.audit?.action, 'delete');
  const now = await caller.compaction.session(scope);
  assert.ok(!now.blocks.some((b) => b.id === block!.id));
  assert.equal(now.trashed.length, 0, 'nothing kept in the trash');
});

test('a trash entry is one folder name, never a path', async (t) => {
  const { caller, scope } = await setup(t);
  await assert.rejects(caller.compactionTrash.restore({ ...scope, ids: null, trashEntry: '../../etc' }), /one folder name/);
});
