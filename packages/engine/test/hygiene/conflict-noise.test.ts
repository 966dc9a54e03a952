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

test('generic shared words (修复, 在群里, 周四晚上) with different numbers are not a conflict', () => {
  const report = draft('修复导出报表超时', '修复了导出报表超时:查询加了索引,从 45 秒降到 3 秒,在群里说了一声,周四晚上一起发布。', ['报表']);
  assert.deepEqual(conflictsOf(assessWrite(report, WEEK, ON, text)).map((c) => c.title), [], '修复 in both titles is still a habit');
  const cache = draft('缓存击穿修复', '修复了商品详情页的缓存击穿,加了 2 秒的互斥锁,在群里同步了一下,周四晚上上线。', ['缓存']);
  assert.deepEqual(conflictsOf(assessWrite(cache, WEEK, ON, text)).map((c) => c.title), []);
});

test('the same subject with a changed value is still a conflict, naming that memory only', () => {
  const moved = draft('周会改时间', '团队周会从下周起改到每周三下午 3 点开,时长 30 分钟。', ['周会']);
  assert.deepEqual(conflictsOf(assessWrite(moved, WEEK, ON, text)).map((c) => c.title), ['周会时间']);
  const buffer = draft('日志采集缓冲区', '日志采集代理的缓冲区最终定为 128 MB,64 MB 在高峰期还是会丢。', ['日志']);
  assert.deepEqual(conflictsOf(assessWrite(buffer, WEEK, ON, text)).map((c) => c.title), ['日志采集丢失']);
});
