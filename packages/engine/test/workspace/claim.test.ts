import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { decideClaim, type ClaimDecision, type KnownWorkspace } from '../../src/workspace/claim.ts';
import { workspaceIdentity, type WorkspaceIdentity } from '../../src/workspace/identity.ts';

const cur = (strong: string | null, weak: string, path = '/new'): WorkspaceIdentity => ({ strong, weak, path });
const known = (id: string, strong: string | null, weak: string, pathExists: boolean, path = `/old/${id}`): KnownWorkspace => ({ id, path, strong, weak, pathExists });
const summary = (d: ClaimDecision): string =>
  d.kind === 'same' ? `same ${d.id}` : d.kind === 'claim' ? `claim ${d.id} via ${d.via}` : d.kind === 'ask' ? `ask ${d.candidates.map((c) => c.id).join(',')}` : 'new';

test('the claim decision table', () => {
  const rows: [string, WorkspaceIdentity, KnownWorkspace[], string][] = [
    ['nothing known', cur('S', 'W'), [], 'new'],
    ['same path', cur('S', 'W', '/old/a'), [known('a', 'X', 'Y', true)], 'same a'],
    ['same path wins over a fingerprint match elsewhere', cur('S', 'W', '/old/a'), [known('b', 'S', 'W', false), known('a', null, '', true)], 'same a'],
    ['strong, old folder gone', cur('S', 'W'), [known('a', 'S', 'other', false)], 'claim a via strong'],
    ['strong, old folder still there (a second clone)', cur('S', 'W'), [known('a', 'S', 'W', true)], 'ask a'],
    ['strong, two candidates both gone', cur('S', 'W'), [known('a', 'S', 'W', false), known('b', 'S', 'W', false)], 'ask a,b'],
    ['strong, one gone and one still there', cur('S', 'W'), [known('a', 'S', 'W', false), known('b', 'S', 'W', true)], 'ask a,b'],
    ['strong wins: a weak-only candidate is not considered', cur('S', 'W'), [known('a', 'S', 'x', false), known('b', null, 'W', false)], 'claim a via strong'],
    ['strong match still there: a gone weak match is not claimed instead', cur('S', 'W'), [known('a', 'S', 'x', true), known('b', null, 'W', false)], 'ask a'],
    ['weak only, old folder gone', cur(null, 'W'), [known('a', null, 'W', false)], 'claim a via weak'],
    ['weak only, old folder still there', cur(null, 'W'), [known('a', null, 'W', true)], 'new'],
    ['weak only, two candidates', cur(null, 'W'), [known('a', null, 'W', false), known('b', null, 'W', false)], 'ask a,b'],
    ['weak only, two candidates, one still there', cur(null, 'W'), [known('a', null, 'W', false), known('b', null, 'W', true)], 'ask a,b'],
    ['weak match, but the strong fingerprints contradict', cur('S', 'W'), [known('a', 'T', 'W', false)], 'new'],
    ['weak match, the old one had no remote yet', cur('S', 'W'), [known('a', null, 'W', false)], 'claim a via weak'],
    ['weak match, this one has no remote any more', cur(null, 'W'), [known('a', 'S', 'W', false)], 'claim a via weak'],
    ['no usable weak fingerprint never matches', cur(null, ''), [known('a', null, '', false)], 'new'],
    ['nothing in common', cur('S', 'W'), [known('a', 'T', 'V', false)], 'new'],
  ];
  for (const [name, current, list, expected] of rows) assert.equal(summary(decideClaim(current, list)), expected, name);
});

test('property: never a silent claim of a folder that still exists, nor with two candidates', () => {
  const values = [null, 'S', 'T'];
  const weaks = ['', 'W', 'V'];
  // Every combination of up to two known workspaces.
  const all: KnownWorkspace[] = [];
  let n = 0;
  for (const s of values) for (const w of weaks) for (const e of [true, false]) all.push(known(`k${n++}`, s, w, e));
  for (const cs of values)
    for (const cw of weaks)
      for (const a of all)
        for (const b of [null, ...all]) {
          const list = b && b.id !== a.id ? [a, b] : [a];
          const d = decideClaim(cur(cs, cw), list);
          if (d.kind !== 'claim') continue;
          const claimed = list.find((k) => k.id === d.id)!;
          assert.equal(claimed.pathExists, false, 'a claimed folder is gone');
          // Weak candidates whose strong fingerprint contradicts ours are different repositories.
          const contradicts = (k: KnownWorkspace) => k.strong !== null && cs !== null && k.strong !== cs;
          const matching = list.filter((k) => (d.via === 'strong' ? k.strong === cs : k.weak === cw && !contradicts(k)));
          assert.equal(matching.length, 1, 'exactly one candidate at the deciding tier');
          if (d.via === 'weak') assert.ok(!list.some((k) => cs !== null && k.strong === cs), 'a strong match is never bypassed');
        }
});

test('on disk: rename → claim; copy → ask; a look-alike folder → new', () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-claim-'));
  const repo = join(root, 'app');
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:me/app.git\n');
  writeFileSync(join(repo, 'package.json'), '{"name":"app"}');
  mkdirSync(join(repo, 'src'));
  const record = (id: string, dir: string): KnownWorkspace => ({ id, ...workspaceIdentity(dir), pathExists: true });
  const knownApp = record('ws-app', repo);

  const copy = join(root, 'app-copy');
  cpSync(repo, copy, { recursive: true });
  const onCopy = decideClaim(workspaceIdentity(copy), [{ ...knownApp, pathExists: existsSync(knownApp.path) }]);
  assert.equal(onCopy.kind, 'ask');

  const moved = join(root, 'app-moved');
  renameSync(repo, moved);
  const onMove = decideClaim(workspaceIdentity(moved), [{ ...knownApp, pathExists: existsSync(knownApp.path) }]);
  assert.deepEqual(onMove, { kind: 'claim', id: 'ws-app', via: 'strong', from: repo });

  const notes = join(root, 'notes');
  mkdirSync(notes);
  for (const f of ['a.md', 'b.md', 'c.md']) writeFileSync(join(notes, f), f);
  const knownNotes = record('ws-notes', notes);
  const lookAlike = join(root, 'other-notes');
  mkdirSync(lookAlike);
  for (const f of ['a.md', 'b.md', 'c.md']) writeFileSync(join(lookAlike, f), 'different content, same names');
  assert.equal(decideClaim(workspaceIdentity(lookAlike), [{ ...knownNotes, pathExists: existsSync(notes) }]).kind, 'new');
  renameSync(notes, join(root, 'notes-2026'));
  const onRename = decideClaim(workspaceIdentity(join(root, 'notes-2026')), [knownApp, { ...knownNotes, pathExists: existsSync(notes) }].map((k) => ({ ...k, pathExists: existsSync(k.path) })));
  assert.deepEqual(onRename, { kind: 'claim', id: 'ws-notes', via: 'weak', from: notes });
});
