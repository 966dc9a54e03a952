// Provenance through the simulated host: a memory written by one session shows that session's id
// in another session's search, and a day question names the sessions its memories came from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadPlugin } from './helpers.ts';

interface ToolCaller {
  call(name: string, json: string, target?: unknown): Promise<{ text: string; value?: unknown; error?: unknown }>;
}

const MEMORY = '[10:00] 伽马服务的证书续期\n\n> 伽马服务的证书由 certbot 每周一凌晨续期\n\n伽马服务的 TLS 证书由 certbot 在每周一凌晨三点续期,失败时告警发到值班群。\n\nTag: 伽马, 证书';

test('search shows which session wrote a memory; a day question names its sessions', async (t) => {
  const { host, corpus } = await loadPlugin(t);
  const tools = host.tools! as unknown as ToolCaller;
  const writer = host.createSession({ cwd: corpus.root });
  const reader = host.createSession({ cwd: corpus.root });
  await writer.userTurn('记一下证书续期', [{ toolCalls: [{ name: 'engram_write', arguments: { content: MEMORY } }] }, { text: '已记下' }]);
  await host.settle();

  const search = await tools.call('engram_search', JSON.stringify({ query: '伽马服务的证书什么时候续期' }), reader);
  assert.equal(search.error, undefined, search.text);
  const hit = (search.value as { hits: { title: string; provenance: string }[] }).hits.find((h) => h.title.includes('伽马'));
  assert.ok(hit, search.text);
  // Host session ids all start with `session-`: the label shows the part after it (issue #12 item 10).
  const short = writer.header.id.replace(/^session-/, '').slice(0, 8);
  assert.ok(hit.provenance.startsWith(`〔s:${short} `), `provenance names the writing session: ${hit.provenance}`);
  assert.doesNotMatch(search.text, /s:session-/);
  assert.ok(search.text.includes(`s:${short}`));

  const today = await tools.call('engram_search', JSON.stringify({ query: '今天做了什么' }), reader);
  assert.equal(today.error, undefined, today.text);
  const time = (today.value as { time: { applied: boolean; sessions?: string[] } | null }).time;
  assert.ok(time?.applied, `the time channel answers "今天做了什么": ${today.text}`);
  assert.deepEqual(time.sessions, [writer.header.id]);
  assert.match(today.text, /涉及会话/);
});
