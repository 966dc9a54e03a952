import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fragmentOf, type FragmentDraft } from '../../src/hygiene/fragment.ts';

const d = (body: string, extra: Partial<FragmentDraft> = {}): FragmentDraft => ({ title: '标题', summary: '', body, ...extra });

test('fragment table: what is refused, and why', () => {
  const cases: [string, FragmentDraft, string | null][] = [
    ['a full sentence', d('东京节点的 443 端口改由 sing-box 接管,nginx 已停。'), null],
    ['short but enough (12 characters)', d('周报每周五下午写完再发出'), null],
    ['too short', d('另一篇'), 'too-short'],
    ['too short: whitespace does not count', d('一 二 三 四 五 六 七 八 九 十 十一'), null],
    ['eleven characters', d('一二三四五六七八九十一'), 'too-short'],
    ['summary counts with the body', d('正文三个', { summary: '摘要里写清了结论和原因' }), null],
    ['title only (given)', d(''), 'too-short'],
    ['a bare dash line', d('- 先跑迁移脚本,再重启服务进程'), 'list-line'],
    ['a bare star line', d('* 发布前先写好回滚脚本和检查清单'), 'list-line'],
    ['a bare numbered line', d('1. 发布前先写好回滚脚本和检查清单'), 'list-line'],
    ['a numbered line with 、', d('2、发布前先写好回滚脚本和检查清单'), 'list-line'],
    ['a bare heading', d('# 发布流程'), 'heading'],
    ['headings only', d('## 发布流程\n\n### 回滚步骤'), 'heading'],
    ['a heading over one bullet', d('# 发布流程\n- 先写回滚脚本再发布到生产环境'), 'list-line'],
    ['a real list is a memory', d('发布流程:\n- 先写回滚脚本\n- 再发布到预发环境\n- 最后发布生产'), null],
    ['several bullets are a memory', d('- 先写回滚脚本\n- 再发布到预发环境\n- 最后发布生产'), null],
    ['a dash inside a sentence', d('端口从 443 改到 8443 - 因为 443 被 nginx 占用了'), null],
    ['a list line written alone becomes the title', { title: '- 买牛奶', summary: '', body: '', titleFromContent: true }, 'list-line'],
    ['a heading written alone becomes the title', { title: '# 部署', summary: '', body: '', titleFromContent: true }, 'heading'],
    ['a short line written alone', { title: '好的', summary: '', body: '', titleFromContent: true }, 'too-short'],
  ];
  for (const [name, draft, want] of cases) {
    const got = fragmentOf(draft, 12);
    assert.equal(got?.reason ?? null, want, name);
    if (got) assert.match(got.message, /一条记忆要能单独看懂/, `${name}: the message says what a memory needs`);
  }
});

test('minChars 0 lets any text through, but a bare line is still a fragment', () => {
  assert.equal(fragmentOf(d('嗯'), 0), null);
  assert.equal(fragmentOf(d('- 嗯'), 0)?.reason, 'list-line');
});

test('the message names the count and the minimum', () => {
  const f = fragmentOf(d('另一篇'), 12)!;
  assert.match(f.message, /3 个字/);
  assert.match(f.message, /至少 12 个/);
  assert.equal(f.chars, 3);
});
