// Lists memories, optionally writes one, and runs a recall through the typed client `@engram/client`.
// The same as list-and-recall.mjs, but every input and answer is typed by the console's router.
//
//   cd docs/examples
//   npx tsx client-list-and-recall.ts "东京节点 端口"           # list + recall
//   npx tsx client-list-and-recall.ts "东京节点 端口" --write  # write a memory first
//
// Run from this folder, tsx reads tsconfig.json here, which maps `@engram/client` to the client's
// source: nothing has to be built. (From elsewhere the package resolves to its dist/, built by `npm pack`.)
//
// ENGRAM_CONSOLE_URL (default http://127.0.0.1:3000) says where the console runs; the token for the
// write is read from <ENGRAM_DATA_DIR or ~/.engram>/console-token by the client.
import { createEngramClient, TRPCClientError, type AppRouter } from '@engram/client';

const args = process.argv.slice(2);
const query = args.find((a) => !a.startsWith('--')) ?? '记忆';
const engram = createEngramClient();

try {
  if (args.includes('--write')) {
    const written = await engram.memories.create.mutate({
      content: '[09:00] 客户端写入的示例记忆\n\n> 通过 @engram/client 写入\n\n这条记忆由 docs/examples/client-list-and-recall.ts 写入,用来演示类型化客户端。\n\nTag: 示例, 客户端',
    });
    console.log(`written: ${written.path}${written.merged ? ' (merged into an older memory)' : ''}`);
  }

  const memories = await engram.memories.list.query({ includeArchived: false });
  console.log(`${memories.length} memories`);
  for (const m of memories.slice(0, 10)) console.log(`  ${m.date}  ${m.title}  [${m.tags.join(', ')}]`);

  const { result } = await engram.recall.run.query({ query, k: 5 });
  console.log(`recall "${query}": ${result.hits.length} hits in ${result.timing.totalMs} ms`);
  for (const h of result.hits) console.log(`  ${h.score.toFixed(4)}  ${h.title}`);
  for (const r of result.explain.gate.removals) console.log(`  not injected: ${r.title} (${r.gate}: ${r.detail})`);
} catch (e) {
  // A refused call is typed too: data.code is the tRPC code, data.engramCode the engine's own.
  if (e instanceof TRPCClientError) {
    const err = e as TRPCClientError<AppRouter>;
    console.error(`engram: ${err.data?.code ?? 'error'}${err.data?.engramCode ? `/${err.data.engramCode}` : ''}: ${err.message}`);
    process.exit(1);
  }
  throw e;
}
