import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { identityFrom, normaliseRemoteUrl, remotesFromGitConfig, workspaceIdentity } from '../../src/workspace/identity.ts';

const GIT_CONFIG = (url: string) => `[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote "upstream"]\n\turl = https://github.com/other/fork.git\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch "main"]\n\tremote = origin\n`;

function makeRepo(root: string, name: string, opts: { remote?: string; pkg?: string; entries?: string[] } = {}): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  if (opts.remote) {
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, '.git', 'config'), GIT_CONFIG(opts.remote));
  }
  if (opts.pkg) writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: opts.pkg, version: '1.0.0' }));
  for (const e of opts.entries ?? ['src', 'README.md', 'tsconfig.json']) {
    if (e.includes('.')) writeFileSync(join(dir, e), 'x');
    else mkdirSync(join(dir, e), { recursive: true });
  }
  return dir;
}

test('every spelling of one remote normalises to one form', () => {
  const same = [
    'git@github.com:Org/Repo.git',
    'https://github.com/Org/Repo',
    'https://github.com/Org/Repo.git',
    'https://user:token@GitHub.com/Org/Repo.git/',
    'ssh://git@github.com:22/Org/Repo.git',
    'ssh://git@github.com/Org/Repo',
    'git://github.com/Org/Repo.git',
  ];
  for (const url of same) assert.equal(normaliseRemoteUrl(url), 'github.com/Org/Repo', url);
  assert.notEqual(normaliseRemoteUrl('git@github.com:Org/Other.git'), normaliseRemoteUrl('git@github.com:Org/Repo.git'));
  assert.notEqual(normaliseRemoteUrl('git@gitlab.com:Org/Repo.git'), normaliseRemoteUrl('git@github.com:Org/Repo.git'));
  assert.equal(normaliseRemoteUrl('/srv/git/repo.git/'), '/srv/git/repo');
  assert.equal(normaliseRemoteUrl(''), '');
});

test('git config: remote urls, origin first, other sections ignored', () => {
  const remotes = remotesFromGitConfig(GIT_CONFIG('git@github.com:me/app.git'));
  assert.deepEqual(remotes, [
    { name: 'origin', url: 'git@github.com:me/app.git' },
    { name: 'upstream', url: 'https://github.com/other/fork.git' },
  ]);
  assert.deepEqual(remotesFromGitConfig('[core]\n\tbare = false\n[branch "main"]\n\turl = nope\n'), []);
  assert.deepEqual(remotesFromGitConfig('[remote "a b"]\r\n  url = "https://x.org/a/b"\r\n'), [{ name: 'a b', url: 'https://x.org/a/b' }]);
});

test('pure identity: strong needs a remote, weak needs enough entries and ignores volatile ones', () => {
  const base = { path: '/w/app', remoteUrl: 'git@github.com:me/app.git', packageName: 'app', entries: ['src', 'package.json', 'README.md', 'node_modules', 'dist', '.git', 'debug.log'] };
  const id = identityFrom(base);
  assert.ok(id.strong && id.strong.length >= 16);
  assert.equal(identityFrom({ ...base, remoteUrl: 'https://github.com/me/app' }).strong, id.strong, 'same remote written another way');
  assert.notEqual(identityFrom({ ...base, packageName: 'app-docs' }).strong, id.strong, 'another package of the same remote');
  assert.equal(identityFrom({ ...base, remoteUrl: null }).strong, null);
  assert.equal(identityFrom({ ...base, entries: ['src', 'package.json', 'README.md'] }).weak, id.weak, 'volatile entries do not count');
  assert.notEqual(identityFrom({ ...base, entries: ['src', 'package.json', 'LICENSE'] }).weak, id.weak);
  assert.equal(identityFrom({ ...base, entries: ['src', 'node_modules', 'README.md'] }).weak, '', 'two real entries say too little');
  assert.equal(identityFrom({ ...base, path: '/w/app/' }).path, '/w/app');
});

test('a renamed folder keeps its identity; a different repository does not share it', () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-ws-'));
  const dir = makeRepo(root, 'app', { remote: 'git@github.com:me/app.git', pkg: 'app' });
  const before = workspaceIdentity(dir);
  assert.ok(before.strong);
  assert.notEqual(before.weak, '');
  assert.equal(before.path, dir);

  mkdirSync(join(dir, 'node_modules', 'x'), { recursive: true });
  mkdirSync(join(dir, 'dist'));
  assert.deepEqual(workspaceIdentity(dir), before, 'installing and building change nothing');

  const moved = join(root, 'app-renamed');
  renameSync(dir, moved);
  const after = workspaceIdentity(moved);
  assert.equal(after.strong, before.strong);
  assert.equal(after.weak, before.weak);
  assert.equal(after.path, moved);

  const other = workspaceIdentity(makeRepo(root, 'other', { remote: 'git@github.com:me/other.git', pkg: 'other' }));
  assert.notEqual(other.strong, before.strong);

  const plain = workspaceIdentity(makeRepo(root, 'plain', { entries: ['notes', 'a.txt', 'b.txt'] }));
  assert.equal(plain.strong, null, 'no git, no strong fingerprint');
  assert.notEqual(plain.weak, '');
  assert.deepEqual(workspaceIdentity(join(root, 'does-not-exist')), { strong: null, weak: '', path: join(root, 'does-not-exist') });
});

test('a linked worktree reads the remote of its main repository', () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-ws-'));
  const main = makeRepo(root, 'main', { remote: 'git@github.com:me/app.git', pkg: 'app' });
  const gitDir = join(main, '.git', 'worktrees', 'feature');
  mkdirSync(gitDir, { recursive: true });
  writeFileSync(join(gitDir, 'commondir'), '../..\n');
  const tree = makeRepo(root, 'feature', { pkg: 'app' });
  writeFileSync(join(tree, '.git'), `gitdir: ${gitDir}\n`);
  assert.equal(workspaceIdentity(tree).strong, workspaceIdentity(main).strong);

  const sub = makeRepo(root, 'sub', { pkg: 'app' });
  mkdirSync(join(root, 'modules', 'sub'), { recursive: true });
  writeFileSync(join(root, 'modules', 'sub', 'config'), GIT_CONFIG('git@github.com:me/app.git'));
  writeFileSync(join(sub, '.git'), 'gitdir: ../modules/sub\n');
  assert.equal(workspaceIdentity(sub).strong, workspaceIdentity(main).strong, 'a relative gitdir (submodule) too');
  cpSync(main, join(root, 'copy'), { recursive: true });
  assert.equal(workspaceIdentity(join(root, 'copy')).strong, workspaceIdentity(main).strong);
});
