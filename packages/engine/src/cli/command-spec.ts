// What one command of `engram` accepts, said once: node's parser takes its options from it and
// `engram <command> --help` prints it, so the help cannot list an option the parser refuses or leave
// out one it takes. Light on purpose (no engine, no node:crypto): `--help` loads it.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { parserError } from './usage.ts';

interface OptionBase {
  /** The letter of `-x`. */
  short?: string;
  /** One line, Chinese first: `中文 / English`. */
  help: string;
}

export type OptionSpec =
  | (OptionBase & { type: 'boolean'; default?: boolean })
  | (OptionBase & {
      type: 'string';
      default?: string;
      /** What the help calls the value: `--k N`, `--runtime auto|yes|no`. */
      value: string;
    });

export interface CommandSpec {
  name: string;
  /** What the command does, one line, Chinese first. */
  summary: string;
  /** Its usage lines, each after `engram `. */
  usage: string[];
  /** Its arguments and how its options combine, each line Chinese first; printed before the options. */
  notes?: string[];
  /** Every option it accepts, in the order the help lists them. */
  options: Record<string, OptionSpec>;
}

/** The `options` node's parseArgs takes: the spec without its words. */
export function parserOptions(spec: CommandSpec): NonNullable<ParseArgsConfig['options']> {
  return Object.fromEntries(
    Object.entries(spec.options).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.default !== undefined ? { default: o.default } : {}) }]),
  );
}

/** The command that prints a command's help (named by its usage errors). */
export function helpCommand(spec: CommandSpec): string {
  return `engram ${spec.name} --help`;
}

/**
 * Whether `args` ask for the command's help: a -h / --help option, not an argument after `--` or an
 * option's value (`--content=-h`) that happens to read so. Arguments the parser refuses still ask
 * for help when they hold the word itself: help is what a person who typed them needs.
 */
export function asksForHelp(spec: CommandSpec, args: string[]): boolean {
  try {
    const { tokens } = parseArgs({ args, options: parserOptions(spec), allowPositionals: true, strict: false, tokens: true });
    return tokens.some((t) => t.kind === 'option' && t.name === 'help');
  } catch {
    return args.includes('--help') || args.includes('-h');
  }
}

/** A command's arguments parsed by its spec; a parser error is `usageError` with the one-line wording every command uses. */
export function parseCommandArgs(
  spec: CommandSpec,
  args: string[],
  usageError: (message: string) => Error,
  { allowPositionals }: { allowPositionals: boolean },
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options: parserOptions(spec), allowPositionals, strict: true });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (e) {
    throw usageError(parserError(e, helpCommand(spec), Object.keys(spec.options), args));
  }
}

function optionLabel(name: string, o: OptionSpec): string {
  return `${o.short ? `-${o.short}, ` : ''}--${name}${o.type === 'string' ? ` ${o.value}` : ''}`;
}

/** What `engram <command> --help` prints. */
export function commandHelp(spec: CommandSpec): string {
  const labels = Object.entries(spec.options).map(([name, o]) => [optionLabel(name, o), o.help] as const);
  const width = Math.max(...labels.map(([label]) => label.length)) + 3;
  return [
    `engram ${spec.name} — ${spec.summary}`,
    '',
    '用法 / usage:',
    ...spec.usage.map((u) => `  engram ${u}`),
    ...(spec.notes?.length ? ['', ...spec.notes.map((n) => `  ${n}`)] : []),
    '',
    '选项 / options:',
    ...labels.map(([label, help]) => `  ${label.padEnd(width)}${help}`),
  ].join('\n');
}
