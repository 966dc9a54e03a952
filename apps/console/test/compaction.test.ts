// The read-only compaction router against a real engine: sessions, one session's blocks, overview,
// trash and audit, as the console section shows them.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CompactionMemory, openEngine } from '@engram/engine';
import { runtimeFor } from '../src/server/engine.ts';
import { createCaller } from '../src/server/root.ts';
import { createContext } from '../src/server/trpc.ts';

test('compaction.sessions / session / audit list what the plugin stored', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'engram-console-cmp-'));
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
  ];
  await memory.ingest({ scope, compactionId: 'c1', summary: '## 端口\n决定改用 8443。', shadowedSeqs: [0, 1], events });
  const blocks = await memory.listBlocks(scope);
  await memory.remove(scope, [blocks[0]!.id]);

  const caller = createCaller(createContext(await runtimeFor(engine)));
  const sessions = await caller.compaction.sessions();
  assert.deepEqual(sessions.map((s) => [s.sessionId, s.blocks, s.trashed, s.compactions]), [['s1', blocks.length - 1, 1, 1]]);
  const detail = await caller.compaction.session(scope);
  assert.equal(detail.blocks.length, blocks.length - 1);
  assert.equal(detail.trashed.length, 1);
  assert.match(detail.overview, /端口 — /);
  assert.deepEqual(detail.compactions.map((c) => c.key), ['c1']);
  assert.deepEqual(detail.audit.map((a) => a.action), ['trash']);
  assert.equal((await caller.compaction.audit()).length, 1);
});
