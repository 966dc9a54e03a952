// Folders that are never a project's: the file system's root, the operating system's own folders
// and the user's home folder itself. Registering one by hand as a workspace (the console accepted
// `/` and `/etc`) makes a workspace out of the whole machine or the whole home. Pure: the caller
// passes the folder (already resolved, symlinks followed where it exists) and the home folder.
import { posix, win32 } from 'node:path';

/** The folders themselves (POSIX: Linux and macOS); a project inside most of them is fine (/opt/app, /var/www/site). */
const SYSTEM_FOLDERS = new Set([
  '/', '/bin', '/boot', '/dev', '/etc', '/home', '/lib', '/lib32', '/lib64', '/libx32', '/media', '/mnt', '/opt', '/proc', '/root',
  '/run', '/sbin', '/snap', '/srv', '/sys', '/tmp', '/usr', '/usr/bin', '/usr/lib', '/usr/local', '/usr/sbin', '/usr/share', '/var',
  '/var/lib', '/var/log', '/var/tmp',
  // macOS
  '/Applications', '/Library', '/System', '/Users', '/Volumes', '/cores', '/private', '/private/etc', '/private/tmp', '/private/var',
]);

/** Folders nothing inside of is a project: virtual file systems, boot files, the system's programs and libraries. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev', '/run', '/boot', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/usr/bin', '/usr/sbin', '/usr/lib', '/System'];

const WINDOWS_FOLDERS = new Set(['\\windows', '\\program files', '\\program files (x86)', '\\programdata', '\\users']);

const inside = (tree: string, path: string): boolean => path === tree || path.startsWith(`${tree}/`);

/**
 * Why `path` cannot be a workspace's folder, Chinese first; null when it can. `home` is the user's
 * home folder: the folder itself is refused, projects inside it are what workspaces are for.
 */
export function systemFolderProblem(path: string, home: string): string | null {
  const windows = /^[A-Za-z]:([\\/]|$)/.test(path);
  // `C:` alone means the drive's current folder to win32.resolve; as a folder to register it is the drive.
  const norm = windows ? win32.resolve(/^[A-Za-z]:$/.test(path) ? `${path}\\` : path) : posix.resolve(path);
  const homeNorm = home ? (windows ? win32.resolve(home) : posix.resolve(home)) : '';
  if (homeNorm && (windows ? norm.toLowerCase() === homeNorm.toLowerCase() : norm === homeNorm)) {
    return `不能把主目录 ${norm} 本身登记为工作区：它装着你所有的项目，不是其中某一个。请选择其中某个项目的文件夹。 / ${norm} is your home folder itself, not a project: it holds all of them. Choose one project's folder inside it.`;
  }
  let system: boolean;
  if (windows) {
    const rest = norm.slice(2).replace(/[\\/]+$/, '').toLowerCase();
    system = rest === '' || WINDOWS_FOLDERS.has(rest) || rest.startsWith('\\windows\\');
  } else {
    system = SYSTEM_FOLDERS.has(norm) || SYSTEM_TREES.some((tree) => inside(tree, norm));
  }
  if (!system) return null;
  return `不能把系统文件夹 ${norm} 登记为工作区：它属于操作系统，不是某个项目的文件夹。请选择项目自己的文件夹（例如 ~/code/项目名）。 / ${norm} is a system folder, not a project's folder, so it cannot be a workspace. Choose the project's own folder (for example ~/code/name).`;
}
