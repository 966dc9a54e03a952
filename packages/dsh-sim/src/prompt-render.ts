// Turning an assembly into model text, with the host's rules: `{{variable}}` references are strict
// (unknown or malformed ones throw, so memory text containing `{{...}}` placed into a section or
// context breaks assembly exactly as it would on the host), empty entries vanish, and the contexts
// become one snapshot that declares itself the successor of earlier snapshots.
import type { AssembledEntry, PromptAssembly } from './types.ts';

const VARIABLE_NAME = /^[a-z][a-z0-9_]*$/;
const GROUP = /^\{\{([^{}]*)\}\}/;

export const SNAPSHOT_PREAMBLE = 'Current runtime context. This snapshot supersedes earlier runtime-context snapshots.';

export function interpolate(entry: AssembledEntry, variables: Record<string, string | undefined>, kind: 'section' | 'context'): string {
  const text = entry.text;
  let out = '';
  let last = 0;
  for (let open = text.indexOf('{{'); open >= 0; open = text.indexOf('{{', last)) {
    const group = GROUP.exec(text.slice(open));
    if (!group) {
      // A lone "{{" is prose unless a later "}}" makes it a broken reference.
      if (text.indexOf('}}', open + 2) >= 0) {
        throw new Error(`malformed prompt variable reference at "${text.slice(open, open + 16)}" in ${kind} "${entry.name}"`);
      }
      out += text.slice(last, open + 2);
      last = open + 2;
      continue;
    }
    const name = group[1] ?? '';
    if (!VARIABLE_NAME.test(name)) {
      throw new Error(`malformed prompt variable reference "{{${name}}}" in ${kind} "${entry.name}"`);
    }
    if (!Object.hasOwn(variables, name)) {
      throw new Error(`unknown prompt variable "{{${name}}}" in ${kind} "${entry.name}"`);
    }
    const value = variables[name];
    if (value === undefined) throw new Error(`prompt variable "{{${name}}}" has no value (${kind} "${entry.name}")`);
    out += text.slice(last, open) + value;
    last = open + group[0].length;
  }
  return out + text.slice(last);
}

export function checkEntries(list: unknown, what: 'sections' | 'contexts'): AssembledEntry[] {
  if (!Array.isArray(list)) throw new TypeError(`assembly.${what} must be an array (a system-prompt/assemble listener returned a broken assembly)`);
  for (const entry of list) {
    if (typeof (entry as AssembledEntry)?.name !== 'string' || typeof (entry as AssembledEntry)?.text !== 'string') {
      throw new TypeError(`assembly.${what} entries must be { name: string, text: string }; got ${JSON.stringify(entry)}`);
    }
  }
  return list as AssembledEntry[];
}

/** The system prompt: interpolated section texts, empty ones dropped, joined by a blank line. */
export function renderPrompt(assembly: PromptAssembly): string {
  return checkEntries(assembly.sections, 'sections')
    .map((section) => interpolate(section, assembly.variables, 'section'))
    .filter((text) => text.length > 0)
    .join('\n\n');
}

/** The non-empty contexts, each with its rendered text. */
export function renderContextSections(assembly: PromptAssembly): AssembledEntry[] {
  return checkEntries(assembly.contexts, 'contexts')
    .map((context) => ({ name: context.name, text: interpolate(context, assembly.variables, 'context') }))
    .filter((section) => section.text.length > 0);
}

/** The user-role snapshot text, or '' when no context has text. */
export function joinContextSections(sections: readonly AssembledEntry[]): string {
  const body = sections.map((section) => section.text).join('\n\n');
  return body.length === 0 ? '' : `${SNAPSHOT_PREAMBLE}\n\n${body}`;
}
