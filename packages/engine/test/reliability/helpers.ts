// Shared by the reliability suites: temp folders, a seeded diary corpus, running a worker script in
// its own process, and the number of runs a property gets (ENGRAM_FUZZ_RUNS raises it for long runs).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = join(here, '../../../..');

/** `base` runs, or ENGRAM_FUZZ_RUNS when it is set (for the long documented runs). */
export function runs(base: number): number {
  const n = Number(process.env.ENGRAM_FUZZ_RUNS);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : base;
}

/** `base` trials, or ENGRAM_CRASH_TRIALS when set. */
export function trials(base: number): number {
  const n = Number(process.env.ENGRAM_CRASH_TRIALS);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : base;
}

export function tempDirs(prefix = 'engram-rel-') {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const diaryDir = join(root, 'diaries');
  const dataDir = join(root, 'data');
  mkdirSync(diaryDir, { recursive: true });
  return { root, diaryDir, dataDir };
}

export function diaryText(time: string, title: string, summary: string, body: string, tags: string[]): string {
  return `[${time}] ${title}\n\n> ${summary}\n\n${body}\n\nTag: ${tags.join(', ')}\n`;
}

const TOPICS: [string, string, string[]][] = [
  ['东京节点端口处置', '东京节点的 443 端口被 nginx 占用,改由 sing-box 接管,并把时区调整为 UTC+9。', ['东京节点', 'sing-box']],
  ['分词器选择', '中文召回用 jieba 分词,单字降权到 0.15,对比了单字二元切分。', ['jieba', '分词']],
  ['前缀缓存命中率', '478 次真实调用中缓存命中率 98.37%,系统提示词保持不变。', ['前缀缓存', '系统提示词']],
  ['数据库备份策略', '迁移前复制数据库文件到 backups 目录,保留最近五份。', ['备份', '数据库']],
  ['周末聚餐地点', '周六在川菜馆聚餐,水煮鱼很好吃,需要提前一天电话订位。', ['聚餐', '川菜馆']],
  ['猫咪体检', '家里的猫每年三月体检,上次体重 4.2 公斤,医生建议控制零食。', ['猫咪', '体检']],
  ['键盘轴体选择', '用户偏好茶轴机械键盘,办公室里用静音红轴。', ['键盘', '茶轴']],
  ['日语学习进度', '日语学到 N3 语法第十二课,每天背三十个单词。', ['日语', 'N3']],
];

/** Writes `n` diaries (topics repeat with a counter) and returns their relative paths. */
export function seedDiaries(diaryDir: string, n = TOPICS.length): string[] {
  const paths: string[] = [];
  for (let i = 0; i < n; i++) {
    const [title, body, tags] = TOPICS[i % TOPICS.length]!;
    const t = i < TOPICS.length ? title : `${title} 第${i}篇`;
    const rel = `${i % 3 === 0 ? '工作/' : ''}2026-10-${String((i % 28) + 1).padStart(2, '0')}-seed-${i}.txt`;
    const abs = join(diaryDir, rel);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, diaryText('09:00', t, body.slice(0, 30), `${body} 编号 ${i}。`, tags));
    paths.push(rel);
  }
  return paths;
}

/** Every regular file under `dir` (relative paths), dot-files included. */
export function listAll(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else out.push(relative(dir, full));
    }
  };
  walk(dir);
  return out.sort();
}

export const read = (p: string): string => readFileSync(p, 'utf8');

export interface WorkerResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript worker in a fresh Node process (through tsx). */
export function runWorker(script: string, args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<WorkerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A copy of the real migrations plus one "from the future": opening a database with it makes that database newer than this build. */
export async function migrateWithFutureBuild(databaseFile: string): Promise<void> {
  const { cpSync, readFileSync: rf, writeFileSync: wf } = await import('node:fs');
  const { defaultMigrationsFolder, openDatabase } = await import('@engram/db');
  const dir = join(mkdtempSync(join(tmpdir(), 'engram-future-')), 'drizzle');
  cpSync(defaultMigrationsFolder(), dir, { recursive: true });
  const journalPath = join(dir, 'meta/_journal.json');
  const journal = JSON.parse(rf(journalPath, 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };
  const last = journal.entries.at(-1)!;
  const tag = `${String(journal.entries.length).padStart(4, '0')}_from_the_future`;
  journal.entries.push({ ...last, idx: journal.entries.length, when: last.when + 86_400_000, tag });
  wf(join(dir, `${tag}.sql`), 'CREATE TABLE `future_feature` (`id` text PRIMARY KEY NOT NULL);\n');
  wf(journalPath, JSON.stringify(journal));
  const db = await openDatabase({ url: `file:${databaseFile}`, migrationsFolder: dir });
  db.close();
}
