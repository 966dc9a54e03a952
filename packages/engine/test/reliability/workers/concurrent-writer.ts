// One side of the two-process test: the console (through its tRPC router) or the plugin (through its
// tools) writing to the same diary folder and database as another process. Prints one JSON line.
import { openEngine } from '@engram/engine';
import { runtimeFor } from '../../../../../apps/console/src/server/engine.ts';
import { createCaller } from '../../../../../apps/console/src/server/root.ts';
import { createContext } from '../../../../../apps/console/src/server/trpc.ts';
import { createTools } from '../../../../../apps/plugin/src/host/tools/memory-tools.ts';

export const MARKER = '追加区结束标记,请勿删除这一行文字';

const [role, diaryDir, dataDir, countText, sharedId] = process.argv.slice(2) as [string, string, string, string, string];
const count = Number(countText);

interface Op {
  write(title: string, body: string): Promise<unknown>;
  edit(id: string, target: string, replacement: string): Promise<unknown>;
  recall(query: string): Promise<unknown>;
}

const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: diaryDir, ENGRAM_DATA_DIR: dataDir, HOME: dataDir } });
let op: Op;
if (role === 'console') {
  const api = createCaller(createContext(await runtimeFor(engine)));
  op = {
    write: (title, body) => api.memories.create({ title, content: body, tags: ['并发'] }),
    edit: (id, target, replacement) => api.memories.edit({ id, target, replacement }),
    recall: (query) => api.recall.run({ query }),
  };
} else {
  const tools = Object.fromEntries(createTools({ engine: () => engine }).map((t) => [t.name, t]));
  const exec = { callId: 'c', name: '', arguments: '' };
  op = {
    write: (title, body) => tools.engram_write!.execute({ title, content: body, tags: ['并发'] }, exec) as Promise<unknown>,
    edit: (id, target, replace) => tools.engram_edit!.execute({ id, target, replace }, exec) as Promise<unknown>,
    recall: (query) => tools.engram_search!.execute({ query }, exec) as Promise<unknown>,
  };
}

const errors: { op: string; code: string; message: string }[] = [];
const wrote: string[] = [];
const edited: string[] = [];
const codeOf = (e: unknown): string => {
  const c = (e as { code?: unknown; cause?: { engramCode?: unknown } })?.cause?.engramCode ?? (e as { code?: unknown })?.code;
  return typeof c === 'string' ? c : 'unknown';
};

for (let i = 0; i < count; i++) {
  const line = `${role}-${i}`;
  try {
    await op.edit(sharedId, MARKER, `${line}\n${MARKER}`);
    edited.push(line);
  } catch (e) {
    errors.push({ op: 'edit', code: codeOf(e), message: e instanceof Error ? e.message : String(e) });
  }
  // Both processes race for the same titles: exactly one of each pair may win.
  const title = i % 2 === 0 ? `共享标题 ${i}` : `${role} 独有标题 ${i}`;
  try {
    // Each side words its bodies differently: two texts differing in one word are near-duplicates,
    // which write hygiene merges into one memory.
    const body =
      role === 'console'
        ? `并发写入测试:控制台经 tRPC 路由提交的第 ${i} 篇,确认两个进程同时写入时一篇都不丢。`
        : `并发写入测试:插件经 engram_write 工具提交的第 ${i} 篇,核对争抢写锁之后日记文件与索引仍然一致。`;
    await op.write(title, body);
    wrote.push(title);
  } catch (e) {
    errors.push({ op: 'write', code: codeOf(e), message: e instanceof Error ? e.message : String(e) });
  }
  try {
    await op.recall('并发写入测试');
  } catch (e) {
    errors.push({ op: 'recall', code: codeOf(e), message: e instanceof Error ? e.message : String(e) });
  }
}
engine.close();
process.stdout.write(`${JSON.stringify({ role, wrote, edited, errors })}\n`);
