// What a person is told when they name a workspace there is none of (engram recall / list / mcp
// --workspace): a workspace only filters what is seen, so a typo read as a workspace with no
// memories. One line, Chinese first, naming the workspace most likely meant and those there are. Pure.
import { nearestSpelling } from '../text/nearest.ts';

export interface NamedWorkspace {
  id: string;
  name: string;
}

/** Workspaces named in the message: a data dir with hundreds would bury the line. */
const LISTED = 10;

/** The workspace `written` most likely means, by its id or its name (a person often writes the folder's name). */
export function meantWorkspace(written: string, workspaces: readonly NamedWorkspace[]): NamedWorkspace | null {
  const spelling = nearestSpelling(written, workspaces.flatMap((w) => [w.id, w.name]));
  return spelling === null ? null : (workspaces.find((w) => w.id === spelling || w.name === spelling) ?? null);
}

const labelZh = (w: NamedWorkspace): string => (w.name !== w.id ? `${w.id}（${w.name}）` : w.id);
const labelEn = (w: NamedWorkspace): string => (w.name !== w.id ? `${w.id} (${w.name})` : w.id);

/** The refusal of `written`, with `workspaces` (those there are, most useful first). */
export function unknownWorkspaceText(written: string, workspaces: readonly NamedWorkspace[]): string {
  const meant = meantWorkspace(written, workspaces);
  const shown = workspaces.slice(0, LISTED);
  const more = workspaces.length - shown.length;
  const zh = `没有 id 为「${written}」的工作区${meant ? `，是不是 ${labelZh(meant)}？` : '。'}现有工作区：${shown.map(labelZh).join('、')}${more > 0 ? ` 等 ${workspaces.length} 个` : ''}`;
  const en = `no workspace with id "${written}"${meant ? ` — did you mean ${labelEn(meant)}?` : ';'} workspaces: ${shown.map(labelEn).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return `${zh} / ${en}`;
}
