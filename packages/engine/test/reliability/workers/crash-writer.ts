// A writer that never stops on its own: creates, edits, saves, archives and rebuilds the index in a
// seeded random order until it is killed (the crash-safety test sends SIGKILL at a random moment).
// Before each operation it prints "begin <op>", so the test knows what the kill interrupted.
import { openEngine } from '../../../src/engine.ts';

export const EDIT_PREFIX = '可编辑标记行:这一行会被反复替换掉';

const [diaryDir, dataDir, seedText] = process.argv.slice(2) as [string, string, string];
let state = Number(seedText) >>> 0 || 1;
const rnd = () => {
  // xorshift32: reproducible per trial
  state ^= state << 13;
  state ^= state >>> 17;
  state ^= state << 5;
  return (state >>> 0) / 0x1_0000_0000;
};
const say = (s: string) => process.stdout.write(`${s}\n`);

const engine = await openEngine({ env: { ENGRAM_DIARY_DIR: diaryDir, ENGRAM_DATA_DIR: dataDir, HOME: dataDir } });
say('ready');
for (let i = 0; ; i++) {
  const docs = (await engine.list()).filter((d) => d.root === 'diary');
  const pick = () => docs[Math.floor(rnd() * docs.length)]!;
  const r = rnd();
  try {
    if (r < 0.35 || docs.length < 3) {
      say('begin write');
      await engine.write({
        title: `崩溃测试 ${seedText}-${i}`,
        content: `第 ${i} 次写入的正文,内容足够长以便分块和建立索引。${'这是一段填充文字,'.repeat(1 + Math.floor(rnd() * 60))}\n${EDIT_PREFIX}`,
        summary: `崩溃测试第 ${i} 篇`,
        tags: ['崩溃测试', `批次${seedText}`],
      });
    } else if (r < 0.6) {
      say('begin edit');
      const d = pick();
      const raw = (await engine.read(d.docId))!.raw;
      const line = raw.split('\n').find((l) => l.startsWith(EDIT_PREFIX));
      if (line) await engine.edit(d.docId, line, `${EDIT_PREFIX}-${i}`);
    } else if (r < 0.72) {
      say('begin save');
      const d = (await engine.read(pick().docId))!;
      const at = d.raw.lastIndexOf('\nTag:');
      await engine.saveText(d.docId, `${d.raw.slice(0, at)}\n保存追加的第 ${i} 行。\n${d.raw.slice(at)}`, d.contentHash);
    } else if (r < 0.8) {
      say('begin forget');
      await engine.forget(pick().docId);
    } else {
      say('begin index');
      await engine.index({ full: true });
    }
    say('done');
  } catch (e) {
    // Expected refusals (an archived pick, a conflict) are fine; anything else is a finding.
    say(`error ${(e as { code?: string }).code ?? ''} ${e instanceof Error ? e.message : String(e)}`);
  }
}
