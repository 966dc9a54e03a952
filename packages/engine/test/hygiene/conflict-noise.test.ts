// Conflict warnings must name a real shared subject, not the habits of a diary: a developer's notes
// keep saying 修复, 在群里 and 周四晚上 (and jieba's single-character bigrams make 在群, 群里, 四晚 of
// them), so words like those shared with a different memory, plus any two different numbers, used to
// flag almost every write (#16). A real contradiction — the same subject, a changed value — still is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { assessWrite, type HygieneCandidate, type HygieneDraft, type HygieneSettings, type WriteAssessment } from '../../src/hygiene/assess.ts';
import { distinctiveByIdf } from '../../src/hygiene/gate.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const tokenizer = createTokenizer({ kind: 'auto' });
const text = { tokenize: (s: string) => tokenizer.tokenize(s), distinctive: distinctiveByIdf };
const ON: HygieneSettings = { enabled: true, minChars: 12, duplicateOverlap: 0.9, conflictWarning: true };

const draft = (title: string, body: string, tags: string[] = []): HygieneDraft => ({ title, summary: '', body, tags });
let n = 0;
const old = (title: string, body: string, tags: string[] = []): HygieneCandidate => {
  const docId = `d${String(++n).padStart(15, '0')}`;
  return { docId, title, summary: '', body, tags, date: '2026-10-01', path: `2026-10-01-${docId}.txt` };
};
const conflictsOf = (a: WriteAssessment) => (a.verdict === 'fragment' ? [] : a.conflicts);

// A week of a developer's diary: different subjects, the same habits of speech, numbers everywhere.
const WEEK = [
  old('修复登录页样式错位', '今天修复了登录页在 Safari 上错位的问题,在群里同步了进度,周四晚上 9 点发布。', ['前端']),
  old('支付回调重复扣款', '修复了支付回调重复扣款的问题,原因是重试没有幂等键,在群里通知了财务,周四晚上 10 点上线,影响 37 笔订单。', ['支付']),
  old('日志采集丢失', '修复了日志采集代理丢日志:缓冲区从 8 MB 调到 64 MB,在群里说了一下,周四晚上一起发。', ['日志']),
  old('周会时间', '团队周会定在每周二上午 10 点,会议室在 3 楼,时长 45 分钟。', ['周会']),
];

// What the write gate compares with: the dozen nearest older memories, most of them about other things.
const NEAREST = [
  ...WEEK,
  old('周末爬山', '走了 12 公里,山顶风很大,下山时膝盖有点疼。', ['爬山']),
  old('学做红烧肉', '糖色炒得有点过,下次小火慢炒 3 分钟。', ['做饭']),
  old('接口限流方案', '选了令牌桶,每秒 200 个请求,突发流量借用桶里的余量。', ['限流']),
  old('代码评审习惯', '先读测试再读实现,超过 400 行的改动要求拆分。', ['评审']),
  old('开始晨跑', '每天 5 公里,心率控制在 150 以内。', ['跑步']),
  old('阳台种番茄', '叶子背面有蚜虫,用稀释的肥皂水喷了 2 次。', ['种植']),
  old('复习线性代数', '用对称矩阵的谱分解理解了主成分分析。', ['数学']),
  old('练习吉他和弦', '食指往品丝靠一点,每天练 15 分钟。', ['吉他']),
];

test('generic shared words (修复, 在群里, 周四晚上) with different numbers are not a conflict', () => {
  const report = draft('修复导出报表超时', '修复了导出报表超时:查询加了索引,从 45 秒降到 3 秒,在群里说了一声,周四晚上一起发布。', ['报表']);
  assert.deepEqual(conflictsOf(assessWrite(report, WEEK, ON, text)).map((c) => c.title), [], '修复 in both titles is still a habit');
  const cache = draft('缓存击穿修复', '修复了商品详情页的缓存击穿,加了 2 秒的互斥锁,在群里同步了一下,周四晚上上线。', ['缓存']);
  assert.deepEqual(conflictsOf(assessWrite(cache, WEEK, ON, text)).map((c) => c.title), []);
  assert.deepEqual(conflictsOf(assessWrite(report, NEAREST, ON, text)).map((c) => c.title), [], 'among a dozen, most of them unrelated');
});

test('the same subject with a changed value is still a conflict, naming that memory only', () => {
  const moved = draft('周会改时间', '团队周会从下周起改到每周三下午 3 点开,时长 30 分钟。', ['周会']);
  assert.deepEqual(conflictsOf(assessWrite(moved, WEEK, ON, text)).map((c) => c.title), ['周会时间']);
  assert.deepEqual(conflictsOf(assessWrite(moved, NEAREST, ON, text)).map((c) => c.title), ['周会时间']);
  const buffer = draft('日志采集缓冲区', '日志采集代理的缓冲区最终定为 128 MB,64 MB 在高峰期还是会丢。', ['日志']);
  assert.deepEqual(conflictsOf(assessWrite(buffer, WEEK, ON, text)).map((c) => c.title), ['日志采集丢失']);
});
