// An MCP host that starts `engram mcp` and writes memories until it is killed: prints the server's
// pid, then one line per acknowledged write. The test kills this process (not the server) with
// SIGKILL, as a crashed editor or terminal would end it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [bin, diaryDir, dataDir] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, 'mcp', '--diary-dir', diaryDir, '--data-dir', dataDir],
  env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  stderr: 'ignore',
});
const client = new Client({ name: 'writing-client', version: '0' });
await client.connect(transport);
process.stdout.write(`pid ${transport.pid}\n`);
for (let i = 0; ; i++) {
  const r = await client.callTool({ name: 'write', arguments: { content: `[09:${String(i % 60).padStart(2, '0')}] 被杀的客户端写的第 ${i} 篇\n> 第 ${i} 篇的结论。\n正文 ${i}。` } });
  process.stdout.write(`${r.isError ? 'error' : 'wrote'} ${i}\n`);
}
