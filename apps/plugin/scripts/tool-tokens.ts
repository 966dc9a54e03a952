// Estimated tokens of every tool schema the plugin offers (sent with every request), and of a fresh
// session's system prompt, through the simulated host. Run: node --import tsx apps/plugin/scripts/tool-tokens.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '@engram/dsh-sim';
import { estimateTokens } from '@engram/engine';
import { createHostPlugin } from '../src/host/apply.ts';

const root = mkdtempSync(join(tmpdir(), 'engram-tool-tokens-'));
const host = createHost({});
try {
  // The full profile: the figures in docs/benchmarks.md under this command (npm run bench:tokens has both profiles).
  await host.load(createHostPlugin({ env: {} }), { diaryDir: root, dataDir: join(root, 'data'), tools: { profile: 'full' }, model: { autoInstall: false } });
  const rows = host.tools!.schemas().map((s) => ({ name: s.name, tokens: estimateTokens(JSON.stringify({ name: s.name, description: s.description, parameters: s.parameters })) }));
  const session = host.createSession({ cwd: root });
  const turn = await session.userTurn('你好', [{ text: 'hi' }]);
  console.log('| tool | tokens |\n|---|---|');
  for (const r of rows.sort((a, b) => b.tokens - a.tokens)) console.log(`| ${r.name} | ${r.tokens} |`);
  const own = rows.filter((r) => r.name !== 'todo_write');
  console.log(`| **total (the plugin's)** | **${own.reduce((n, r) => n + r.tokens, 0)}** |`);
  console.log(`\nsystem prompt of a fresh session: ${estimateTokens(turn.requests[0]!.system)} tokens`);
} finally {
  await host.close();
  rmSync(root, { recursive: true, force: true });
}
