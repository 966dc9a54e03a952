// A message of megabytes in the folded range (a pasted log the model never accepted): the compaction
// memory keeps its beginning, as a tool result's, and records the cut, instead of splitting and
// tokenising all of it in one synchronous step.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extractTranscript, MAX_MESSAGE_CHARS, type TranscriptOptions } from '../../src/compaction/transcript.ts';
import type { TranscriptEvent } from '../../src/compaction/types.ts';

const options: TranscriptOptions = { dialogue: true, toolResults: true, readTools: ['read'], maxBlockChars: 1200, maxToolResultChars: 4000 };
const user = (seq: number, text: string): TranscriptEvent => ({ seq, type: 'user/message', data: { source: { kind: 'user' }, content: text } }) as TranscriptEvent;
const assistant = (seq: number, text: string): TranscriptEvent => ({ seq, type: 'assistant/message', data: { message: { content: [{ type: 'text', text }] } } }) as TranscriptEvent;

test('a pasted message of megabytes: only its beginning becomes blocks, and the cut is recorded', () => {
  const log = `服务启动日志\n${'2026-12-06 10:00:01 INFO worker started on port 8443\n'.repeat(60_000)}末尾的一行只在最后`;
  assert.ok(log.length > 2_000_000);
  const pieces = extractTranscript([user(1, log), assistant(2, '看起来端口被占用了。')], options);
  const dialogue = pieces.filter((p) => p.kind === 'dialogue');
  const kept = dialogue.reduce((n, p) => n + p.body.length, 0);
  assert.ok(kept <= MAX_MESSAGE_CHARS + 200, `kept ${kept} characters`);
  assert.ok(dialogue[0]!.body.includes('服务启动日志'), 'the beginning is kept');
  assert.ok(!dialogue.some((p) => p.body.includes('末尾的一行只在最后')), 'the end is not');
  assert.ok(dialogue.some((p) => p.body.includes('看起来端口被占用了')), 'the reply is kept');
  for (const p of dialogue) assert.equal(p.cutFrom, log.length, 'each block of the exchange says what it was cut from');
});

test('messages within the cap are read whole, with no cut recorded', () => {
  const pieces = extractTranscript([user(1, '东京节点的端口是多少？'), assistant(2, '8443。')], options);
  assert.equal(pieces.length, 1);
  assert.equal(pieces[0]!.cutFrom, null);
  assert.match(pieces[0]!.body, /东京节点的端口是多少？[\s\S]*8443。/);
});
