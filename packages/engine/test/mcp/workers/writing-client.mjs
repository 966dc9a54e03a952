// An MCP host that starts `engram mcp` and writes memories: prints the server's pid, then one line
// per acknowledged write. mode busy: writes until it is killed; mode idle: three writes, then waits.
// The test kills this process (not the server) with SIGKILL, as a crashed editor or terminal ends it.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const [bin, diaryDir, dataDir, mode] = process.argv.slice(2);
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin, 'mcp', '--diary-dir', diaryDir, '--data-dir', dataDir],
  env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
  stderr: 'ignore',
});
const client = new Client({ name: 'writing-client', version: '0' });
await client.connect(transport);
process.stdout.write(`pid ${transport.pid}\n`);
for (let i = 0; mode === 'busy' || i < 3; i++) {
  const r = await client.callTool({ name: 'write', arguments: { content: `[09:${String(i % 60).padStart(2, '0')}] 第 ${i} 号机房的巡检记录\n> 第 ${i} 号机房巡检正常,温度 ${20 + (i % 10)} 度,下次巡检在 ${i + 1} 号之后。\n巡检人记下了机柜编号 R${i}-K${i * 7}。` } });
  if (r.isError) process.stderr.write(`write ${i} refused: ${r.content?.[0]?.text}\n`);
  process.stdout.write(`${r.isError ? 'error' : 'wrote'} ${i}\n`);
}
process.stdout.write('idle\n');
setInterval(() => {}, 60_000);
