// The judge's two measured architecture constraints (seed 000): one candidate per request — a batch
// lets candidates pull on each other's probabilities — and a statement to rate true or false, not a
// question (chat models rate statements more sharply). Plus its default threshold, 0.7. Someone
// "optimising" into a batch or back into a question turns this red.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { configSchema } from '../../src/config/schema.ts';
import { createJudge } from '../../src/judge/judge.ts';

test('one request per candidate, each a single statement naming that candidate only; threshold 0.7 by default', async (t) => {
  const bodies: { model: string; messages: { role: string; content: string }[]; max_tokens: number; logprobs: boolean }[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(raw));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: '是' } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => new Promise((r) => server.close(r)));
  const defaults = configSchema.parse({}).judge;
  assert.equal(defaults.threshold, 0.7);
  const { judge } = createJudge({ ...defaults, enabled: true, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, model: 'm' }, fetch, {});
  const candidates = [
    { chunkId: 'c1', title: '东京节点', text: 'ALPHA 改用 8443 端口' },
    { chunkId: 'c2', title: '周报', text: 'BRAVO 每周五写' },
    { chunkId: 'c3', title: '备份', text: 'CHARLIE 凌晨三点跑' },
  ];
  const verdict = await judge!('东京节点端口现在是多少?', candidates as never);
  assert.equal(verdict.applied, true);
  assert.equal(bodies.length, 3, 'one request per candidate');
  const markers = ['ALPHA', 'BRAVO', 'CHARLIE'];
  for (const body of bodies) {
    assert.equal(body.messages.length, 1);
    const content = body.messages[0]!.content;
    assert.equal(markers.filter((m) => content.includes(m)).length, 1, `one candidate per statement: ${content}`);
    assert.match(content, /^判断下面这个陈述是否为真/, 'a statement to rate, not a question');
    assert.match(content, /陈述:用户的话「东京节点端口现在是多少\?」与这条记忆讨论的是同一个主题。/);
    assert.equal(body.max_tokens, 1);
    assert.equal(body.logprobs, true);
  }
  assert.deepEqual(new Set(bodies.map((b) => markers.find((m) => b.messages[0]!.content.includes(m)))), new Set(markers));
});

test('a judge URL with a password is not used, and the password is in no status or message', async () => {
  let calls = 0;
  const defaults = configSchema.parse({}).judge;
  const { judge, status } = createJudge({ ...defaults, enabled: true, baseUrl: 'https://me:hunter2-pw@judge.example/v1', model: 'm' }, (async () => {
    calls++;
    throw new TypeError('Request cannot be constructed from a URL that includes credentials: https://me:hunter2-pw@judge.example/v1/chat/completions');
  }) as typeof fetch, {});
  if (judge) await judge('问题', [{ chunkId: 'c1', title: 't', text: 'x' }]);
  assert.equal(judge, null);
  assert.equal(status.enabled, false);
  assert.match(String(status.reason), /judge\.apiKey/);
  assert.ok(!JSON.stringify(status).includes('hunter2'), JSON.stringify(status));
  assert.equal(calls, 0);
});
