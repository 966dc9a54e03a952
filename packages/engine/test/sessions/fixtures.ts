// Real-shaped DSH session logs for tests: event envelopes as the contract describes them, written
// as multi-frame zstd (one frame per append, as the host does) into a temporary DSH home.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compress, init } from '@bokuweb/zstd-wasm';

// Memoised: init() while initialised re-instantiates the module and the next compress returns garbage.
let ready: Promise<void> | null = null;
export const zstdReady = (): Promise<void> => (ready ??= init());

/** One zstd frame of JSONL rows (call zstdReady first). */
export function frameOf(rows: readonly unknown[], level = 3): Uint8Array {
  const text = rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
  return compress(Buffer.from(text, 'utf8'), level);
}

/** A frame with one raw (stored) block: its payload bytes appear verbatim inside the frame. */
export function rawFrame(payload: Uint8Array): Uint8Array {
  if (payload.length > 128 * 1024) throw new Error('one raw block holds at most 128 KiB');
  // FHD 0xA0: single segment, 4-byte content size, no checksum, no dictionary.
  const head = Uint8Array.of(0x28, 0xb5, 0x2f, 0xfd, 0xa0, payload.length & 0xff, (payload.length >> 8) & 0xff, (payload.length >> 16) & 0xff, 0);
  const blockHeader = (payload.length << 3) | 1; // last block, raw
  const block = Uint8Array.of(blockHeader & 0xff, (blockHeader >> 8) & 0xff, (blockHeader >> 16) & 0xff);
  return Buffer.concat([head, block, payload]);
}

export const concat = (parts: readonly Uint8Array[]): Uint8Array => new Uint8Array(Buffer.concat(parts.map((p) => Buffer.from(p))));

/** Builds events with increasing seq and time (ms since `start`, one second apart). */
export class EventWriter {
  seq = 0;
  constructor(public time: number) {}

  ev(type: string, data: unknown): Record<string, unknown> {
    this.time += 1000;
    return { type, seq: this.seq++, time: this.time, data };
  }

  person(text: string) {
    return this.ev('user/message', { id: `u${this.seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user', rpcId: `r${this.seq}` } });
  }

  plugin(text: string, plugin = 'engram', form = 'recall') {
    return this.ev('user/message', { id: `${plugin}-${form}-${this.seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'plugin', plugin, form } });
  }

  assistant(turn: number, text: string, thinking?: string, step = 1) {
    const content = [...(thinking ? [{ type: 'reasoning', text: thinking }] : []), { type: 'text', text }];
    return this.ev('assistant/message', { turn, step, message: { content } });
  }

  call(turn: number, name: string, args: unknown, callId = `c${this.seq}`, step = 1) {
    return this.ev('tool/call', { turn, step, callId, name, arguments: JSON.stringify(args) });
  }

  result(turn: number, callId: string, text: string, error = false, step = 1) {
    return this.ev('tool/result', { turn, step, message: { role: 'tool', callId, content: [{ type: 'text', text }] }, ...(error ? { error: true } : {}) });
  }

  turnStart(turn: number) {
    return this.ev('turn/start', { turn });
  }

  turnEnd(turn: number) {
    return this.ev('turn/end', { turn });
  }
}

/** A simple turn: start, the person's words, one answer, end. */
export function simpleTurn(w: EventWriter, turn: number, user: string, answer: string): Record<string, unknown>[] {
  return [w.turnStart(turn), w.person(user), w.assistant(turn, answer), w.turnEnd(turn)];
}

export function logPath(home: string, project: string, id: string): string {
  return join(home, 'sessions', project, id, 'session.v4.jsonl.zstd');
}

export function writeLog(home: string, project: string, id: string, bytes: Uint8Array): string {
  const file = logPath(home, project, id);
  mkdirSync(join(home, 'sessions', project, id), { recursive: true });
  writeFileSync(file, bytes);
  return file;
}

/** Deterministic PRNG (mulberry32) so a failing fuzz case can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const T0 = new Date(2026, 2, 9, 9, 30, 0).getTime(); // local 2026-03-09 09:30

export interface Fixture {
  id: string;
  project: string;
  cwd: string | null;
  frames: Uint8Array[];
}

/**
 * The main session: wrapped header, injected fragments in the person's text, a plugin message,
 * thinking blocks, tool calls with JSON-string arguments, a title event; one frame per turn.
 */
export function richSession(id = 'a1b2c3d4-1111-4aaa-8bbb-000000000001', cwd = '/work/alpha', start = T0): Fixture & { rows: Record<string, unknown>[][] } {
  const w = new EventWriter(start);
  const header = { type: 'session/header', data: { id, cwd, origin: 'web', createdAt: new Date(start).toISOString() } };
  const turn1 = [
    w.turnStart(1),
    w.person('东京节点 443 端口被占用了怎么办?\n<engram-recall date="2026-03-01">INJECTED-RECALL 旧记忆</engram-recall>\n<system-reminder>INJECTED-REMINDER</system-reminder>'),
    w.plugin('<engram-recall>PLUGIN-ONLY 整条注入</engram-recall>'),
    w.plugin('工作区快照 SNAPSHOT-TEXT', 'system-prompt', 'snapshot'),
    w.assistant(1, '我先看一下配置文件。', 'THOUGHT-ONE 先想想'),
    w.call(1, 'read_file', { path: 'etc/sing-box.json', limit: 200 }, 'call-1'),
    w.result(1, 'call-1', '{"inbounds":[{"listen_port":443}]}'),
    w.call(1, 'bash', { command: 'ss -ltnp | grep 443' }, 'call-2'),
    w.result(1, 'call-2', 'permission denied', true),
    w.assistant(1, '443 被 nginx 占用。结论:东京节点改用 8443 端口,并重启 sing-box。\n<<<DailyNoteStart>>>\n[10:00] 端口\nDIARY-BLOCK\n<<<DailyNoteEnd>>>', 'THOUGHT-TWO', 2),
    w.turnEnd(1),
  ];
  const turn2 = [
    w.turnStart(2),
    w.person('## 周报应该怎么写?\nTag: 伪标签'),
    w.ev('assistant/message', { turn: 2, step: 1, message: { content: [{ type: 'thinking', thinking: 'THOUGHT-THREE', text: 'THOUGHT-THREE' }, { type: 'text', text: '<think>INLINE-THINK</think>周报每周五下午写,列三件事。' }] } }),
    w.turnEnd(2),
    w.ev('session/title', { title: '东京节点端口与周报' }),
  ];
  const rows = [[header], turn1, turn2];
  return { id, project: 'alpha', cwd, frames: rows.map((r) => frameOf(r)), rows };
}
