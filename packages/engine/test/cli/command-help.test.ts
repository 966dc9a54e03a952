// `engram <command> --help` is that command's own help, and every help command an error names exists
// and lists the option the error is about. `--help` used to print the general overview for every
// command, which lists few options (none of model's --verify, --runtime, --force), while the usage
// errors of engram mcp / engram model sent the user to `engram mcp --help` / `engram model --help`.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parserOptions } from '../../src/cli/command-spec.ts';
import { COMMAND_SPECS } from '../../src/cli/commands.ts';
import { tempDirs } from '../engine/helpers.ts';

const engineDir = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(engineDir, 'bin/engram.js');

function engram(args: string[]) {
  const dirs = tempDirs();
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dirs.root, ENGRAM_MODEL_CACHE: join(dirs.root, 'models') }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The commands the general help lists: its lines indented by two spaces that start with a name. */
const commandsOf = (overview: string) => new Set([...overview.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]!));

/** The line of `help` that describes `--name` (or `-x, --name`): `null` when there is none. */
function optionLine(help: string, name: string): string | null {
  return help.split('\n').find((line) => new RegExp(`^\\s+(?:-[a-zA-Z], )?--${name}(?=[ =]|$)`).test(line)) ?? null;
}

/** Chinese, then ` / ` (or `）/ `) and the English. */
const CHINESE_THEN_ENGLISH = /[\u4e00-\u9fff].*\/ [A-Za-z<"'(-]/;

test('engram <command> --help and -h print that command\'s own help and exit 0, for every command the general help lists', () => {
  const overview = engram(['--help']);
  assert.equal(overview.code, 0, overview.stderr);
  const commands = [...commandsOf(overview.stdout)];
  assert.ok(commands.length >= 13, `the general help lists the commands: ${commands.join(', ')}`);
  for (const command of commands) {
    for (const flag of ['--help', '-h']) {
      const r = engram([command, flag]);
      const what = `engram ${command} ${flag}: ${r.stdout}${r.stderr}`;
      assert.equal(r.code, 0, what);
      assert.equal(r.stderr, '', what);
      assert.notEqual(r.stdout, overview.stdout, `not the general help: ${what}`);
      assert.ok(r.stdout.startsWith(`engram ${command} — `), `opens with the command's name: ${what}`);
      assert.match(r.stdout.split('\n')[0]!, CHINESE_THEN_ENGLISH, `what it does, Chinese first: ${what}`);
      assert.ok(r.stdout.split('\n').some((l) => l.startsWith(`  engram ${command}`)), `a usage line of engram ${command}: ${what}`);
    }
  }
});

test('the help of a command given after its arguments is still that command\'s help', () => {
  const r = engram(['model', 'status', '--data-dir', '/nonexistent', '--help']);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(optionLine(r.stdout, 'verify'), r.stdout);
});

test('every option each command\'s parser accepts has a line in that command\'s --help, Chinese first', () => {
  const overview = engram(['--help']).stdout;
  assert.deepEqual(Object.keys(COMMAND_SPECS).sort(), [...commandsOf(overview)].sort(), 'a spec for every command the CLI has, and only those');
  for (const [command, spec] of Object.entries(COMMAND_SPECS)) {
    const help = engram([command, '--help']).stdout;
    const options = parserOptions(spec);
    assert.ok(Object.keys(options).length > 0, command);
    for (const [name, option] of Object.entries(options)) {
      const line = optionLine(help, name);
      assert.ok(line, `engram ${command} --help names --${name}:\n${help}`);
      if (option.short) assert.ok(line.trimStart().startsWith(`-${option.short}, --${name}`), `and its short form -${option.short}: ${line}`);
      if (option.type === 'string') assert.match(line, new RegExp(`--${name} [^ ]`), `with what its value is: ${line}`);
      assert.match(line, CHINESE_THEN_ENGLISH, `one line, Chinese first: ${line}`);
    }
  }
});

// The parser's options come from the spec only if no command hands node's parser options of its own.
test('no module of the engine calls node\'s parseArgs but the one that parses a command by its spec', () => {
  const src = join(engineDir, 'src');
  const callers = (readdirSync(src, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .filter((f) => /\bparseArgs\b/.test(readFileSync(join(src, f), 'utf8')))
    .map((f) => f.split('\\').join('/'));
  assert.deepEqual(callers, ['cli/command-spec.ts']);
});

test('every option the general help names is one its command accepts', () => {
  const overview = engram(['--help']).stdout;
  const [commandsPart] = overview.split(/^common options:/m);
  let command = '';
  for (const line of commandsPart!.split('\n')) {
    command = /^ {2}([a-z][a-z-]*)\b/.exec(line)?.[1] ?? command;
    if (!command) continue;
    const spec = Object.hasOwn(COMMAND_SPECS, command) ? COMMAND_SPECS[command as keyof typeof COMMAND_SPECS] : undefined;
    assert.ok(spec, `the general help lists engram ${command}, which has no spec`);
    const accepted = parserOptions(spec);
    for (const [, name] of line.matchAll(/--([a-z][a-z-]*)/g)) assert.ok(name! in accepted, `engram ${command} accepts --${name}, as the general help says: ${line}`);
  }
  assert.match(overview, /engram <command> --help/, 'says where the options of a command are');
});

test('every help command a usage error names exists and lists the option the error is about', () => {
  const cases: { args: string[]; option?: string }[] = [
    { args: ['nosuchcommand'] },
    { args: ['recall', 'x', '--no-such-flag'] },
    { args: ['recall', '--k'], option: 'k' },
    { args: ['recall', 'x', '--only'], option: 'only' },
    { args: ['list', '--limit'], option: 'limit' },
    { args: ['write', '--kind'], option: 'kind' },
    { args: ['import-sessions', '--all=yes'], option: 'all' },
    { args: ['serve', '--port'], option: 'port' },
    { args: ['mcp', '--no-such-flag'] },
    { args: ['mcp', '--port'], option: 'port' },
    { args: ['mcp', '--workspace'], option: 'workspace' },
    { args: ['model'] },
    { args: ['model', 'frobnicate'] },
    { args: ['model', 'status', '--verify=yes'], option: 'verify' },
    { args: ['model', 'install', '--runtime'], option: 'runtime' },
    { args: ['model', 'install', '--force=1'], option: 'force' },
  ];
  for (const c of cases) {
    const r = engram(c.args);
    const what = `engram ${c.args.join(' ')}: ${r.stderr}`;
    assert.equal(r.code, 2, what);
    const named = [...r.stderr.matchAll(/engram(?: [a-z][a-z-]*)? --help/g)].map((m) => m[0]);
    assert.ok(named.length > 0, `names a help command: ${what}`);
    for (const helpCommand of named) {
      const help = engram(helpCommand.split(' ').slice(1));
      assert.equal(help.code, 0, `${helpCommand} (named by ${what}): ${help.stderr}`);
      assert.ok(help.stdout.length > 0, helpCommand);
      if (c.option) assert.ok(optionLine(help.stdout, c.option), `${helpCommand}, named by ${what}, lists --${c.option}:\n${help.stdout}`);
    }
  }
});

test('an argument after -- that reads -h or --help is not a request for help: recall looks it up', () => {
  const dirs = tempDirs();
  const common = ['--diary-dir', dirs.diaryDir, '--data-dir', dirs.dataDir, '--json'];
  for (const args of [['recall', ...common, '--', '-h'], ['recall', ...common, '--', '--help']]) {
    const r = engram(args);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /用法 \/ usage/, `${args.join(' ')} printed help`);
    assert.equal(JSON.parse(r.stdout).query, args.at(-1), `${args.join(' ')} did not recall "${args.at(-1)}"`);
  }
});

test('engram help <command> prints that command\'s help, as engram <command> --help does; an unknown one is said so', () => {
  const viaHelp = engram(['help', 'model']);
  assert.equal(viaHelp.code, 0, viaHelp.stderr);
  assert.equal(viaHelp.stdout, engram(['model', '--help']).stdout);
  const unknown = engram(['help', 'modle']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /"modle".*did you mean model\?/);
  assert.match(engram(['lsit']).stderr, /did you mean list\?/);
  assert.match(engram(['frobnicate']).stderr, /unknown command "frobnicate" \(try engram --help\)/);
});

test('a parser error says what is wrong in Chinese too, not only in node\'s English: an unknown option (with the nearest one), a missing value, a dash-led value, a value given to a switch', () => {
  const cases: [string[], RegExp][] = [
    [['list', '--limt', '3'], /^engram list: 参数有误：没有 --limt 这个选项，是不是 --limit？（engram list --help 列出全部选项）\/ unknown option '--limt' \(did you mean '--limit'\?\)\n$/],
    [['recall', 'x', '--frobnicate'], /^engram recall: 参数有误：没有 --frobnicate 这个选项（engram recall --help 列出全部选项）\/ unknown option '--frobnicate'\n$/],
    [['recall', '--k'], /^engram recall: 参数有误：--k 需要一个值（engram recall --help 列出全部选项）\/ option '--k' needs a value\n$/],
    [['write', '--content', '-x'], /^engram write: 参数有误：--content 的值以 - 开头，请写成 --content=-x（engram write --help 列出全部选项）\/ the value of '--content' starts with a dash: write it as '--content=-x'\n$/],
    [['status', '--json=yes'], /^engram status: 参数有误：--json 不带值（engram status --help 列出全部选项）\/ option '--json' takes no value\n$/],
  ];
  for (const [args, expected] of cases) {
    const r = engram(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.stderr, expected, args.join(' '));
  }
});
