// A DSH home with real-shaped session logs (multi-frame zstd, one frame per turn as the host appends)
// for the console's router tests and the browser test. Built on the engine's own session fixtures.
import { concat, EventWriter, frameOf, simpleTurn, writeLog, zstdReady } from '../../../packages/engine/test/sessions/fixtures.ts';

export interface FixtureSession {
  id: string;
  cwd: string;
  title: string;
  /** [the person's words, the answer] per turn. */
  turns: [string, string][];
  /** Local start time (ms). */
  start: number;
}

/** Writes each session as `<home>/sessions/<project>/<id>/session.v4.jsonl.zstd`: header frame, then one frame per turn. */
export async function writeDshHome(home: string, sessions: readonly FixtureSession[], project = 'proj'): Promise<void> {
  await zstdReady();
  for (const s of sessions) {
    const w = new EventWriter(s.start);
    const frames = [frameOf([{ type: 'session/header', data: { id: s.id, cwd: s.cwd, origin: 'web', createdAt: new Date(s.start).toISOString() } }])];
    s.turns.forEach(([user, answer], i) => frames.push(frameOf(simpleTurn(w, i + 1, user, answer))));
    frames.push(frameOf([w.ev('session/title', { title: s.title })]));
    writeLog(home, project, s.id, concat(frames));
  }
}

const START = new Date(2026, 8, 14, 10, 0, 0).getTime();

/**
 * Two sessions in `cwd` (one in a sub-folder) with words no other fixture uses, and one elsewhere
 * that must not be listed. `prefix` (8 hex digits) starts every id, so several sets can share a home.
 */
export function sampleSessions(cwd: string, elsewhere: string, prefix = '5e551011'): FixtureSession[] {
  return [
    {
      id: `${prefix}-aaaa-4bbb-8ccc-000000000001`,
      cwd,
      title: `灯塔巡检脚本 ${prefix}`,
      start: START,
      turns: [
        ['灯塔巡检脚本每天凌晨跑一次,日志写到哪里比较好?', '结论:灯塔巡检日志写到 /var/log/lighthouse,按天轮转。'],
        ['巡检失败要不要发短信?', '结论:连续三次失败才发短信,避免夜间误报。'],
      ],
    },
    {
      id: `${prefix}-aaaa-4bbb-8ccc-000000000002`,
      cwd: `${cwd}/tools`,
      title: `潮汐表解析 ${prefix}`,
      start: START + 86_400_000,
      turns: [['潮汐表的 CSV 第一列是什么格式?', '结论:潮汐表第一列是本地时间,格式 YYYY-MM-DD HH:mm。']],
    },
    {
      id: `${prefix}-aaaa-4bbb-8ccc-000000000003`,
      cwd: elsewhere,
      title: '别处的会话',
      start: START + 2 * 86_400_000,
      turns: [['别的项目里的问题', '别的项目里的回答']],
    },
  ];
}
