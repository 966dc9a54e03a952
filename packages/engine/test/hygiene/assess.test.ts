import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { assessWrite, HygieneTokens, type HygieneCandidate, type HygieneDraft, type HygieneSettings, type WriteAssessment } from '../../src/hygiene/assess.ts';
import { distinctiveByIdf } from '../../src/hygiene/gate.ts';
import { numbersDiffer, numbersIn, overlapCoefficient } from '../../src/hygiene/similarity.ts';
import { createTokenizer } from '../../src/text/tokenize.ts';

const tokenizer = createTokenizer({ kind: 'auto' });
const text = { tokenize: (s: string) => tokenizer.tokenize(s), distinctive: distinctiveByIdf };
const ON: HygieneSettings = { enabled: true, minChars: 12, duplicateOverlap: 0.9, conflictWarning: true };

const draft = (title: string, body: string, extra: Partial<HygieneDraft> = {}): HygieneDraft => ({ title, summary: '', body, tags: [], ...extra });
const old = (docId: string, title: string, body: string, extra: Partial<HygieneCandidate> = {}): HygieneCandidate => ({
  docId, title, summary: '', body, tags: [], date: '2026-10-01', path: `2026-10-01-${docId}.txt`, ...extra,
});

const conflictsOf = (a: WriteAssessment) => (a.verdict === 'fragment' ? [] : a.conflicts);

const POOL = old('aaaa000011112222', 'pgbouncer 池大小', 'pgbouncer 的 default_pool_size 设为 20,超过会把数据库连接打满。', { tags: ['pgbouncer'] });
const DEPLOY = old('bbbb000011112222', '部署脚本的回滚步骤', '部署脚本失败时先执行 rollback.sh,再清理 releases 目录里最新的一份,最后重启 supervisor。', { tags: ['部署', '回滚'] });

test('numbers: values are found, dates, clock times and names are not', () => {
  assert.deepEqual([...numbersIn('池大小设为20,超时 30 秒,命中率 98.37%')].sort(), ['20', '30', '98.37']);
  assert.deepEqual([...numbersIn('2026-10-06 14:20 在 10月6日 讨论了 F32_BLOB、v0.2.6、ws-1a2b 和 UTF-8')], []);
  assert.equal(numbersDiffer(new Set(['20']), new Set(['40', '200'])), true);
  assert.equal(numbersDiffer(new Set(['20']), new Set(['20', '40'])), false, 'an added value is not a changed one');
  assert.equal(numbersDiffer(new Set(), new Set(['20'])), false, 'both sides must carry numbers');
  assert.equal(overlapCoefficient(new Set(['a', 'b']), new Set(['a', 'b', 'c', 'd'])), 1);
  assert.equal(overlapCoefficient(new Set(), new Set(['a'])), 0);
});

test('the same memory written again is a duplicate of the older one', () => {
  const again = draft('部署失败怎么回滚', '部署脚本失败时先执行 rollback.sh,再清理 releases 目录里最新的一份,最后重启 supervisor 进程。', { tags: ['部署'] });
  const a = assessWrite(again, [POOL, DEPLOY], ON, text);
  assert.equal(a.verdict, 'duplicate');
  assert.equal(a.verdict === 'duplicate' && a.target.docId, DEPLOY.docId);
  assert.equal(a.verdict === 'duplicate' && a.identical, false);
  assert.ok(a.verdict === 'duplicate' && a.overlap >= 0.9);
});

test('word for word the same (whitespace aside) is an identical duplicate', () => {
  const same = draft(DEPLOY.title, DEPLOY.body.replace(',', ',\n'));
  const a = assessWrite(same, [DEPLOY], ON, text);
  assert.equal(a.verdict === 'duplicate' && a.identical, true);
});

test('a changed number is not a duplicate: it is a probable conflict naming the older memory', () => {
  const changed = draft('pgbouncer 池大小调整', 'pgbouncer 的 default_pool_size 改成 40,数据库 max_connections 同步调到 200。', { tags: ['pgbouncer'] });
  const a = assessWrite(changed, [POOL, DEPLOY], ON, text);
  assert.equal(a.verdict, 'new');
  assert.equal(conflictsOf(a).length, 1);
  const c = conflictsOf(a)[0]!;
  assert.equal(c.docId, POOL.docId);
  assert.equal(c.title, POOL.title);
  assert.match(c.reason, /pgbouncer 池大小/);
  // It names the claim that changed, quoting both clauses: the pool size went from 20 to 40.
  assert.match(c.reason, /旧:20;新:40/);
  assert.match(c.reason, /「pgbouncer 的 default_pool_size 改成 40」/);
  assert.match(c.reason, /supersede/);
  assert.match(c.reason, /没有被改动/);
});

test('no conflict warning when the draft supersedes the older memory, or the older one is already replaced', () => {
  const changed = draft('pgbouncer 池大小调整', 'pgbouncer 的 default_pool_size 改成 40。', { tags: ['pgbouncer'], supersedes: [POOL.docId.slice(0, 8)] });
  assert.deepEqual(conflictsOf(assessWrite(changed, [POOL], ON, text)), []);
  const unreferenced = { ...changed, supersedes: [] };
  assert.deepEqual(conflictsOf(assessWrite(unreferenced, [{ ...POOL, superseded: true }], ON, text)), []);
  assert.equal(conflictsOf(assessWrite(unreferenced, [POOL], { ...ON, conflictWarning: false }, text)).length, 0);
});

test('no conflict without a shared subject or without differing numbers', () => {
  const otherSubject = draft('咖啡机清洁', '咖啡机每 20 天除一次垢,用柠檬酸,水箱要拆下来洗。');
  assert.deepEqual(conflictsOf(assessWrite(otherSubject, [POOL], ON, text)), [], 'numbers differ but nothing shared');
  const noNumbers = draft('pgbouncer 连接池模式', 'pgbouncer 用 transaction 模式,default_pool_size 按库单独设置。', { tags: ['pgbouncer'] });
  assert.deepEqual(conflictsOf(assessWrite(noNumbers, [POOL], ON, text)), [], 'shared subject, but the draft states no number');
});

test('an unrelated memory is new, with nothing to say', () => {
  const a = assessWrite(draft('前端构建缓存', 'webpack 的 filesystem cache 放在 node_modules/.cache 下,CI 上要用 actions/cache 保存。'), [POOL, DEPLOY], ON, text);
  assert.deepEqual(a, { verdict: 'new', conflicts: [], warnings: [] });
});

test('a locked twin is not merged into: the write goes ahead with a warning', () => {
  const again = draft('部署失败怎么回滚', DEPLOY.body);
  const a = assessWrite(again, [{ ...DEPLOY, locked: true }], ON, text);
  assert.equal(a.verdict, 'new');
  assert.match(a.verdict === 'new' ? a.warnings[0]! : '', /已锁定/);
});

test('hygiene off: everything passes untouched', () => {
  assert.deepEqual(assessWrite(draft('x', '短'), [DEPLOY], { ...ON, enabled: false }, text), { verdict: 'new', conflicts: [], warnings: [] });
  assert.deepEqual(assessWrite(draft(DEPLOY.title, DEPLOY.body), [DEPLOY], { ...ON, enabled: false }, text), { verdict: 'new', conflicts: [], warnings: [] });
});

test('a fragment is refused before anything is compared', () => {
  const a = assessWrite(draft('回滚', '- 先执行 rollback.sh'), [DEPLOY], ON, text);
  assert.equal(a.verdict, 'fragment');
  assert.equal(a.verdict === 'fragment' && a.reason, 'list-line');
});

test('a reworded title does not hide a duplicate; a short note is told apart by its title', () => {
  const retitled = assessWrite(draft('回滚步骤(重写)', DEPLOY.body, { tags: ['运维'] }), [DEPLOY], ON, text);
  assert.equal(retitled.verdict === 'duplicate' && retitled.target.docId, DEPLOY.docId);
  const monday = old('cccc000011112222', '周一例会', '按计划推进,没有新的风险。');
  const tuesday = assessWrite(draft('周二例会', '按计划推进,没有新的风险。'), [monday], ON, text);
  assert.equal(tuesday.verdict, 'new', 'few words: the titles take part, and they differ');
});

test('a memory tokenized clause by clause has the tokens of its whole text (the fixtures, mixed scripts, full-width punctuation)', () => {
  const { pairs } = JSON.parse(readFileSync(new URL('./fixtures/conflict-pairs.json', import.meta.url), 'utf8')) as {
    pairs: { old: { title: string; body: string; tags: string[] }; new: { title: string; body: string; tags: string[] } }[];
  };
  const memories = pairs.flatMap((p) => [p.old, p.new]).map((m) => ({ ...m, summary: '' }));
  memories.push(
    { title: 'API：v1.2.3 升级', summary: '端口改成 8,443！原来是 443；', body: 'camelCaseName 与 C++、C# 的对比:\n\n  ＡＢＣ１２３，ｆｕｌｌ－ｗｉｄｔｈ？是 ok 的。\r\nnode_modules/x.y:3;done', tags: ['升级', 'API v2'] },
    { title: '', summary: '', body: '', tags: [] },
    { title: 'a:b', summary: '，。', body: '::\n\n。东京', tags: ['c,d'] },
  );
  const tokens = new HygieneTokens(text);
  for (const m of memories) {
    const content = [m.summary, m.body].join('\n');
    assert.deepEqual(tokens.byClause(content), tokenizer.tokenize(content), content);
    assert.deepEqual(tokens.ofMemory(m), tokenizer.tokenize([m.title, m.summary, m.body, m.tags.join(' ')].join('\n')), m.title);
  }
});
