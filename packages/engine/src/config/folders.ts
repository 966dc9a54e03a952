// Lexical checks of folder settings (diary.folder, diary.archiveFolder) and of a new diary root, at
// save time: an escaping folder saved with ok:true would break every later write in every process.
import { isAbsolute, resolve, sep } from 'node:path';
import { checkRelativePath } from '../diary/fsio.ts';
import { errorMessage } from '../errors.ts';

/** Why a folder value is not a relative path inside the diary root, or null when it is. */
export function folderProblem(value: string): string | null {
  try {
    checkRelativePath(value);
    return null;
  } catch (e) {
    return `must be a relative folder inside the diary root (${errorMessage(e)})`;
  }
}

/** System folders (and their parents, like `/`) that are never a diary root. */
const SYSTEM_DIRS = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/libx32', '/proc', '/root', '/run', '/sbin', '/sys', '/usr', '/var', '/snap', '/System', '/Library', '/Applications', '/Volumes', '/cores'];
const WINDOWS_SYSTEM = /^[a-z]:\\(windows|program files( \(x86\))?|programdata)(\\|$)/i;

const inside = (child: string, parent: string) => child === parent || child.startsWith(parent.endsWith(sep) ? parent : parent + sep);

/** Why `dir` cannot be a diary root chosen in the console, or null. `home` itself is refused too. */
export function diaryRootProblem(dir: string, home: string): string | null {
  if (!isAbsolute(dir)) return 'must be an absolute path';
  const abs = resolve(dir);
  if (WINDOWS_SYSTEM.test(abs) || /^[a-z]:\\?$/i.test(abs)) return 'is a system folder';
  for (const sys of SYSTEM_DIRS) if (inside(abs, sys) || inside(sys, abs)) return 'is a system folder';
  if (home && resolve(home) === abs) return 'is the home folder itself (choose a folder inside it)';
  return null;
}

export type DiaryRootVerdict = { ok: true } | { ok: false; confirm: boolean; reason: string };

/**
 * A settings save that moves the diary root: never to a system folder, and only with a confirmation
 * that names the new path exactly (the console asks "move the diaries to <path>?").
 */
export function checkDiaryRootChange(current: string, next: string, confirmed: string | undefined, home: string): DiaryRootVerdict {
  if (resolve(next) === resolve(current)) return { ok: true };
  const problem = diaryRootProblem(next, home);
  if (problem) return { ok: false, confirm: false, reason: `diaryDir ${next} ${problem}; the diary root stays ${current}` };
  if (confirmed === undefined || resolve(confirmed) !== resolve(next)) {
    return { ok: false, confirm: true, reason: `moving the diary root from ${current} to ${next} needs a confirmation naming ${next}` };
  }
  return { ok: true };
}
