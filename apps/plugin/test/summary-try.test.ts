// 「试一下 AI 摘要」 through the simulator (seed 001-51): the console page posts a memory's text as it
// stands in the editor; the plugin asks the host's model as the summary queue would and answers
// with the summary, writing nothing. A model failure answers the rule summary and why; a request
// from another site, or without the token, is refused before the model is asked.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { SUMMARY_TRY_PATH } from '../src/host/notes/summary-try.ts';
import { CLIENT_CONFIG_PATH, TOKEN_HEADER } from '../src/host/routes/routes.ts';
import { loadPlugin } from './helpers.ts';

const DRAFT = { title: '部署顺序', body: '部署脚本放在 deploy 目录:先跑 check.sh 检查环境,再跑 release.sh 发布,失败时回滚到上一个标签。' };

async function setup(t: Parameters<typeof loadPlugin>[0], reply: () => string) {
  const asked: string[] = [];
  const loaded = await loadPlugin(t, {
    config: { summaries: { provider: 'deepseek', model: 'deepseek-flash' } },
    host: { httpService: 'httpServer', llmResponder: (call) => (asked.push(`${call.provider}/${call.model}: ${JSON.stringify(call.messages)}`), reply()) },
  });
  const base = await loaded.host.listen();
  const token = ((await (await fetch(`${base}${CLIENT_CONFIG_PATH}`)).json()) as { token: string }).token;
  const post = (headers: Record<string, string>, body: unknown = DRAFT) =>
    fetch(`${base}${SUMMARY_TRY_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { ...loaded, base, token, post, asked };
}

test('the model\'s summary of the unsaved text comes back; nothing is written', async (t) => {
  const { post, token, asked, corpus, base, host } = await setup(t, () => '摘要:部署先跑 check.sh 再跑 release.sh,失败回滚。');
  const files = readdirSync(corpus.diaryDir).sort();
  const res = await post({ [TOKEN_HEADER]: token });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { source: string; summary: string; route: unknown };
  assert.deepEqual([body.source, body.summary, body.route], ['auto', '部署先跑 check.sh 再跑 release.sh,失败回滚。', { provider: 'deepseek', model: 'deepseek-flash' }]);
  assert.equal(asked.length, 1);
  assert.match(asked[0]!, /^deepseek\/deepseek-flash: .*部署顺序.*release\.sh/);
  assert.deepEqual(readdirSync(corpus.diaryDir).sort(), files, 'no memory written');
  // The console page through the host: a same-site browser request, no token (the proxy vouches for it).
  const page = await post({ origin: base });
  assert.equal(page.status, 200);
  await host.settle();
});

test('a failing model answers the rule summary and the reason; other sites and missing tokens are refused unasked', async (t) => {
  const { post, token, asked, host } = await setup(t, () => {
    throw new Error('401 invalid api key');
  });
  const res = await post({ [TOKEN_HEADER]: token });
  const body = (await res.json()) as { source: string; summary: string; error: string };
  assert.equal(body.source, 'rule');
  assert.match(body.error, /401 invalid api key/);
  assert.ok(body.summary.includes('deploy'), body.summary);
  const calls = asked.length;
  assert.equal((await post({ origin: 'http://evil.example' })).status, 403);
  assert.equal((await post({})).status, 403);
  assert.equal((await post({ [TOKEN_HEADER]: token }, {})).status, 400);
  assert.equal(asked.length, calls, 'the model was not asked for refused requests');
  await host.settle();
});
