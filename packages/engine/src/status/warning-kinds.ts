// Warnings grouped by kind (pure, and loadable in a browser: `@engram/engine/warnings`). A folder of
// plain notes gives one "missing summary" per note (49,980 lines for 50,000 notes), although the
// summary is optional: per-file warnings are grouped by kind and counted, and optional gaps are told
// apart from what a person can fix. The CLI prints them (cli/warnings.ts); `status` counts them for the
// console's Index page; the Library marks a memory only for what can be fixed.

/** `path:line: message`, as the diary parser reports a file's problem. */
const FILE_WARNING = /^(.*?):(\d+): (.+)$/s;
/** `path: message`, as the scan reports a file against another (same title as …). */
const FILE_WARNING_NO_LINE = /^(.+?\.(?:txt|md)): (.+)$/is;
/** Other files a message names: one kind of problem whichever file it names (same title as …). */
const NAMED_FILE = /\S+\.(?:txt|md)\b/gi;

/** Gaps the diary format allows (the engine fills them in): nothing for the user to fix. */
const OPTIONAL: RegExp[] = [/^missing "> summary" paragraph/, /^front matter has no description/];

const isOptionalMessage = (message: string): boolean => OPTIONAL.some((re) => re.test(message));

/** Whether a warning (`path:line: message`, or the message alone) is an optional gap rather than something to fix. */
export function isOptionalGap(warning: string): boolean {
  return isOptionalMessage(fileWarningOf(warning)?.message ?? warning);
}

/** Up to this many fixable file warnings are printed one by one; more are counted by kind. */
const LIST_LIMIT = 10;

export interface WarningKind {
  message: string;
  count: number;
  /** The first `path:line` that has it. */
  example: string;
  optional: boolean;
}

export interface GroupedWarnings {
  /** Warnings about the data itself (not one file's): always shown in full. */
  general: string[];
  /** Per-file warnings the user can fix, one by one (empty when they were too many: see `kinds`). */
  listed: string[];
  kinds: WarningKind[];
}

/** A per-file warning's kind (its message, other files it names as …) and how to show one of it; null for a warning about the data itself. */
function fileWarningOf(w: string): { message: string; example: string } | null {
  const withLine = FILE_WARNING.exec(w);
  if (withLine) return { message: withLine[3]!.replace(NAMED_FILE, '…'), example: `${withLine[1]}:${withLine[2]}` };
  const noLine = FILE_WARNING_NO_LINE.exec(w);
  return noLine ? { message: noLine[2]!.replace(NAMED_FILE, '…'), example: w } : null;
}

export function groupWarnings(warnings: readonly string[]): GroupedWarnings {
  const general: string[] = [];
  const fixable: string[] = [];
  const byMessage = new Map<string, WarningKind>();
  for (const w of warnings) {
    const file = fileWarningOf(w);
    if (!file) {
      general.push(w);
      continue;
    }
    const { message, example } = file;
    const optional = isOptionalMessage(message);
    if (!optional) fixable.push(w);
    const kind = byMessage.get(message);
    if (kind) kind.count++;
    else byMessage.set(message, { message, count: 1, example, optional });
  }
  const listAll = fixable.length <= LIST_LIMIT;
  const kinds = [...byMessage.values()].filter((k) => k.optional || !listAll).sort((a, b) => b.count - a.count);
  return { general, listed: listAll ? fixable : [], kinds };
}

export interface WarningSummary extends GroupedWarnings {
  /** Every warning counted (the status list itself is capped). */
  total: number;
  /** Those a person can fix: general ones and per-file ones that are not optional gaps. */
  fixable: number;
}

/** groupWarnings with the counts the capped list cannot give. */
export function summariseWarnings(warnings: readonly string[]): WarningSummary {
  const grouped = groupWarnings(warnings);
  const optional = grouped.kinds.filter((k) => k.optional).reduce((n, k) => n + k.count, 0);
  return { ...grouped, total: warnings.length, fixable: warnings.length - optional };
}
