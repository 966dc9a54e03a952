#!/usr/bin/env node
// Lists memories and runs a recall through the Engram console's HTTP API (plain fetch, no packages).
//
//   node docs/examples/list-and-recall.mjs "东京节点 端口"            # list + recall
//   node docs/examples/list-and-recall.mjs "东京节点 端口" --write   # also write a memory first
//
// ENGRAM_CONSOLE_URL (default http://127.0.0.1:3000) says where the console runs; the token for writes
// is read from <ENGRAM_DATA_DIR or ~/.engram>/console-token, the file the console created on first start.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const base = (process.env.ENGRAM_CONSOLE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const dataDir = process.env.ENGRAM_DATA_DIR || join(homedir(), '.engram');
const args = process.argv.slice(2);
const query = args.find((a) => !a.startsWith('--')) ?? '记忆';

/** A tRPC query: GET with the input as URL-encoded JSON. */
async function query_(path, input) {
  const url = `${base}/api/trpc/${path}${input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`}`;
  return unwrap(path, await fetch(url));
}

/** A tRPC mutation: POST with a JSON body and the install token. */
async function mutate(path, input) {
  const token = readFileSync(join(dataDir, 'console-token'), 'utf8').trim();
  const res = await fetch(`${base}/api/trpc/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-engram-token': token },
    body: JSON.stringify(input),
  });
  return unwrap(path, res);
}

async function unwrap(path, res) {
  const body = await res.json();
  if (body.error) {
    const { code, engramCode } = body.error.data ?? {};
    throw new Error(`${path}: ${code}${engramCode ? `/${engramCode}` : ''}: ${body.error.message}`);
  }
  return body.result.data;
}

if (args.includes('--write')) {
  const written = await mutate('memories.create', {
    content: `[09:00] 脚本写入的示例记忆\n\n> 通过 HTTP API 写入\n\n这条记忆由 docs/examples/list-and-recall.mjs 写入,用来演示 API。\n\nTag: 示例, API`,
  });
  console.log(`written: ${written.path}`);
}

const memories = await query_('memories.list', { includeArchived: false });
console.log(`${memories.length} memories`);
for (const m of memories.slice(0, 10)) console.log(`  ${m.date}  ${m.category || '/'}  ${m.title}  [${m.tags.join(', ')}]`);

const { result, injection } = await query_('recall.run', { query });
console.log(`\nrecall "${query}": ${result.hits.length} hits in ${result.timing.totalMs} ms (tokenizer ${result.tokenizer})`);
for (const h of result.hits) {
  const lex = h.channels.lexical ? `lexical #${h.channels.lexical.rank}` : 'lexical –';
  const sem = h.channels.semantic ? `semantic #${h.channels.semantic.rank}` : 'semantic –';
  console.log(`  ${h.score.toFixed(4)}  ${h.title}  (${lex}, ${sem}; matched ${h.matched.map((t) => t.token).join(' ')})`);
}
if (result.hits.length === 0) {
  console.log(`  nothing injected; gates removed ${result.explain.gate.removed}${result.explain.gate.noDistinctiveTokens ? ' (no distinctive token in the query)' : ''}`);
}
if (args.includes('--injection')) console.log(`\n${injection}`);
