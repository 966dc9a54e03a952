// A large diary corpus (thousands of memories) for the progress test and the console benchmark:
// short, varied Chinese entries spread over folders and days, with a few words per entry drawn from
// a fixed vocabulary so searches and recalls have something to find.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const WORDS = ['数据库', '迁移', '周末', '爬山', '红烧肉', '小说', '线性代数', '日语', '正则', '假期', '书房', '限流', '评审', '晨跑', '番茄', '共识', '吉他', '咖啡', '潜水', '火山', '灯塔', '潮汐', '风筝', '陶艺'];
const FOLDERS = ['工作', '生活', '学习', '旅行', ''];

export function seedBulkDiary(diaryDir: string, n: number): number {
  for (let i = 0; i < n; i++) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor(i / 3) * 86_400_000).toISOString().slice(0, 10);
    const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length]!;
    const folder = FOLDERS[i % FOLDERS.length]!;
    const dir = join(diaryDir, folder);
    mkdirSync(dir, { recursive: true });
    const hh = String(8 + (i % 3) * 4).padStart(2, '0');
    const mm = String((i * 17) % 60).padStart(2, '0');
    writeFileSync(
      join(dir, `${day}-第${i}条.txt`),
      `[${hh}:${mm}] 第${i}条 ${w(1)}与${w(2)}\n\n> ${w(3)}的记录\n\n今天${w(4)}和${w(5)},记下编号 ${i}。${w(6)}比较顺利,${w(7)}还要再看。\n\nTag: ${w(1)}, ${w(2)}\n`,
    );
  }
  return n;
}
