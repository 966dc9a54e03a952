// Issue #25: `workspaces.register` accepted `/` and `/etc` as workspace folders. The operating
// system's folders and the home folder itself are refused with a reason; projects inside them are not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemFolderProblem } from '../../src/workspace/system-folders.ts';

const HOME = '/home/someone';

test('the root, the system folders and the home folder itself are refused, with a Chinese-first reason', () => {
  for (const path of ['/', '/etc', '/etc/', '/usr', '/usr/local', '/bin', '/sbin', '/var', '/proc', '/sys', '/dev', '/boot', '/lib', '/lib64', '/opt', '/tmp', '/home', '/Users', '/System', '/private/etc', '/usr/../etc', '//etc']) {
    const problem = systemFolderProblem(path, HOME);
    assert.ok(problem, `${path} must be refused`);
    assert.match(problem, /^不能把系统文件夹 \S+ 登记为工作区/);
    assert.match(problem, / \/ .*system folder/, 'English after the Chinese');
  }
  for (const path of [HOME, `${HOME}/`, `${HOME}/code/..`]) assert.match(systemFolderProblem(path, HOME) ?? '', /^不能把主目录 \/home\/someone 本身登记为工作区/);
});

test('nothing inside a virtual file system or the system’s program folders is a project', () => {
  for (const path of ['/proc/1', '/proc/self/cwd', '/sys/kernel', '/dev/shm', '/run/user/1000', '/boot/grub', '/usr/bin/x', '/lib/modules', '/System/Library']) {
    assert.ok(systemFolderProblem(path, HOME), `${path} must be refused`);
  }
});

test('projects are accepted, also inside folders that are refused themselves', () => {
  for (const path of [`${HOME}/code/harbor`, '/opt/app', '/var/www/site', '/srv/git/repo', '/tmp/scratch', '/etc/nginx', '/usr/local/src/tool', '/Users/someone/code/x', '/mnt/data/project']) {
    assert.equal(systemFolderProblem(path, HOME), null, path);
  }
  assert.equal(systemFolderProblem('/anything', ''), null, 'no home known: only the system folders count');
});

test('Windows: drive roots and the system’s folders are refused, a project under the user’s folder is not', () => {
  const home = 'C:\\Users\\me';
  for (const path of ['C:\\', 'C:', 'D:\\', 'C:\\Windows', 'C:\\Windows\\System32', 'C:\\Program Files', 'c:\\users']) assert.ok(systemFolderProblem(path, home), path);
  assert.match(systemFolderProblem('C:\\Users\\me\\', home) ?? '', /^不能把主目录/);
  assert.equal(systemFolderProblem('C:\\Users\\me\\code\\app', home), null);
});
