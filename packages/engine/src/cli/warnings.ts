// How the CLI shows the warnings an index run or `status` collects: grouped by kind
// (status/warning-kinds.ts), optional gaps as a note rather than a warning, and the full list one flag
// away (`--warnings`; `--json` always has it).
import { groupWarnings } from '../status/warning-kinds.ts';

const count = (n: number) => n.toLocaleString('en-US');

/** The lines to print: every warning with `all`, else general ones, a few fixable ones and one line per kind. */
export function warningLines(warnings: readonly string[], command: string, all: boolean): string[] {
  if (all) return warnings.map((w) => `warning: ${w}`);
  const { general, listed, kinds } = groupWarnings(warnings);
  const lines = [...general, ...listed].map((w) => `warning: ${w}`);
  for (const k of kinds) {
    const files = `${count(k.count)} file${k.count === 1 ? '' : 's'}`;
    lines.push(k.optional ? `note: ${files}: ${k.message} (optional, nothing to fix; e.g. ${k.example})` : `warning: ${files}: ${k.message} (e.g. ${k.example})`);
  }
  if (kinds.length > 0) lines.push(`every warning with its file: engram ${command} --warnings (or --json)`);
  return lines;
}
