// The pre-execute guard for DSH's raw session logs: a shell or file tool aimed at a .zstd session
// file under $DSH_HOME/sessions is denied through the host's tools/pre-execute waterfall (host:
// packages/core/tools/src/index.ts, PreToolDecision), and the model is pointed to the session tool.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadPlugin } from './helpers.ts';

function hostTools(host: Awaited<ReturnType<typeof loadPlugin>>['host'], ran: string[]) {
  const text = (value: unknown) => [{ type: 'text' as const, text: JSON.stringify(value) }];
  for (const [name, key] of [['bash', 'command'], ['read', 'path']] as const) {
    host.tools!.register(
      {
        name,
        description: `host ${name}`,
        parameters: { type: 'object', required: [key], properties: { [key]: { type: 'string' } } },
        output: { schema: { type: 'object' }, render: (_a: unknown, v: unknown) => text(v) },
        execute: (args: Record<string, string>) => (ran.push(`${name} ${args[key]}`), { ok: true }),
      },
      '<host>',
    );
  }
}

function dshHome(t: { after(fn: () => unknown): void }) {
  const home = mkdtempSync(join(tmpdir(), 'engram-dsh-home-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const dir = join(home, 'sessions', 'proj', 'session-abc');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'session.v4.jsonl.zstd'), Buffer.from([0x28, 0xb5, 0x2f, 0xfd]));
  return home;
}

for (const profile of ['full', 'lean'] as const) {
  test(`a shell or file tool reading a raw session log is denied and pointed to the session tool (${profile})`, async (t) => {
    const home = dshHome(t);
    const { host } = await loadPlugin(t, { deps: { env: { DSH_HOME: home } }, config: { tools: { profile } } });
    const ran: string[] = [];
    hostTools(host, ran);
    const log = join(home, 'sessions', 'proj', 'session-abc', 'session.v4.jsonl.zstd');
    const readTool = profile === 'lean' ? 'engram_history' : 'session_read';
    for (const [tool, args] of [
      ['bash', { command: `zstdcat ${log} | head` }],
      ['bash', { command: `cat ${home}/sessions/*/*/*.zstd` }],
      ['read', { path: log }],
      // The name the current host writes, wherever it is copied.
      ['bash', { command: 'zstdcat /tmp/copy/session.jsonl.zstd' }],
    ] as const) {
      const r = await host.tools!.call(tool, JSON.stringify(args));
      assert.ok(r.error, `${tool} ${JSON.stringify(args)} should be denied`);
      assert.match(r.text, new RegExp(readTool));
      assert.match(r.text, /会话/);
    }
    assert.deepEqual(ran, [], 'no denied call reached its tool');

    // Everything else passes: listing the folder, other .zstd files, ordinary reads.
    for (const [tool, args] of [
      ['bash', { command: `ls ${home}/sessions` }],
      ['bash', { command: 'zstd -d /tmp/backup.tar.zstd' }],
      ['read', { path: '/work/app/README.md' }],
    ] as const) {
      const r = await host.tools!.call(tool, JSON.stringify(args));
      assert.equal(r.error, undefined, `${tool} ${JSON.stringify(args)}: ${r.text}`);
    }
    assert.equal(ran.length, 3);
    host.assertClean();
  });
}
