import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type Engine, type OpenEngineOptions } from '../../src/engine.ts';

export function tempDirs() {
  const root = mkdtempSync(join(tmpdir(), 'engram-test-'));
  const diaryDir = join(root, 'diaries');
  const dataDir = join(root, 'data');
  mkdirSync(diaryDir);
  return { root, diaryDir, dataDir };
}

export function diary(time: string, title: string, summary: string, body: string, tags: string[]): string {
  return `[${time}] ${title}\n\n> ${summary}\n\n${body}\n\nTag: ${tags.join(', ')}\n`;
}

/**
 * A lexical-only engine over `notes` ([file id, title, body], one a day from 2026-10-01) and thirty
 * weekly reports around them (so a note's words are not the only ones in the store), indexed, with
 * time decay off: each note is written to 2026-10-DD-<id>.txt.
 */
export async function engineOverNotes(notes: readonly [string, string, string][]): Promise<Engine> {
  const dirs = tempDirs();
  const all = [...notes];
  for (let i = 0; i < 30; i++) all.push([`filler-${i}`, `周报 ${i}`, `第${i}周：修了${i % 5}个缺陷，评审了${i % 3}个合并请求，会议${i % 4}次。`]);
  all.forEach(([id, title, body], i) => writeFileSync(join(dirs.diaryDir, `2026-10-${String((i % 28) + 1).padStart(2, '0')}-${id}.txt`), diary('09:00', title, title, body, ['work'])));
  const engine = await openTestEngine(dirs, {}, { embedding: { provider: 'none' }, timeDecay: { enabled: false } });
  await engine.index({ full: true });
  return engine;
}

/** An engine over seedCorpus in a new temp folder, closed and removed when test `t` ends. */
export async function seededEngine(t: { after: (fn: () => void) => void }): Promise<{ dirs: ReturnType<typeof tempDirs>; engine: Engine }> {
  const dirs = tempDirs();
  seedCorpus(dirs.diaryDir);
  const engine = await openTestEngine(dirs);
  t.after(() => {
    engine.close();
    rmSync(dirs.root, { recursive: true, force: true });
  });
  return { dirs, engine };
}

/** A small corpus of distinct topics, written as diary files. */
export function seedCorpus(diaryDir: string): Record<string, string> {
  const files: Record<string, string> = {
    '2026-10-20-tokyo-1a2b3c4d.txt': diary('21:14', '东京节点 443 端口处置', '东京节点的 443 端口被 nginx 占用,改由 sing-box 接管。', '起因是 nginx 占用了 443 端口。停掉 nginx 之后由 sing-box 监听 443,并把时区调整为 UTC+9。', ['东京节点', '443 端口', 'sing-box']),
    '2026-10-21-jieba.txt': diary('10:00', '分词器选择', '中文召回用 jieba 分词,单字降权。', '对比了 jieba 与单字二元切分:jieba 的词表更小,召回排序更准。单字权重降到 0.15。', ['jieba', '分词', '召回']),
    'work/2026-10-22-cache.txt': diary('09:30', '前缀缓存命中率', '召回块放在消息流里,系统提示词保持不变。', '478 次真实调用中缓存命中率 98.37%,唯一一次断崖来自系统提示词长度变化。', ['前缀缓存', '系统提示词']),
    'work/2026-10-23-backup.txt': diary('18:05', '数据库备份策略', '迁移前备份数据库,保留最近五份。', '每次迁移之前复制数据库文件到 backups 目录,超过五份时删除最旧的一份。', ['备份', '迁移', '数据库']),
    '2026-10-24-dinner.txt': diary('19:40', '周末聚餐地点', '周六在川菜馆聚餐,记得提前订位。', '上次去的川菜馆在地铁站旁边,水煮鱼很好吃,需要提前一天电话订位。', ['聚餐', '川菜馆']),
  };
  for (const [path, text] of Object.entries(files)) {
    const full = join(diaryDir, path);
    mkdirSync(join(full, '..'), { recursive: true });
    writeFileSync(full, text);
  }
  return files;
}

export async function openTestEngine(dirs: { root: string; diaryDir: string; dataDir: string }, extra: Partial<OpenEngineOptions> = {}, options: Record<string, unknown> = {}) {
  return openEngine({
    options: { diaryDir: dirs.diaryDir, dataDir: dirs.dataDir, ...options },
    env: { HOME: dirs.root },
    now: () => new Date('2026-11-01T00:00:00'),
    ...extra,
  });
}
