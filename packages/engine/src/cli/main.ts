// `engram` CLI: thin adapter from arguments to the engine. Bad input = one clear line on stderr + exit 2.
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
// The engine (database client, tokenizer, jieba) is imported by the commands that use it, not here:
// `engram --version` and `--help` must start in milliseconds (the compiled CLI splits at these imports).
import type { Engine } from '../engine.ts';
import { EngramError, errorMessage, isEngramError } from '../errors.ts';
import { printJson, progressBar, recallJson, recallText } from './output.ts';
import { nearestSpelling } from '../text/nearest.ts';
import { asksForHelp, commandHelp, parseCommandArgs, type CommandSpec } from './command-spec.ts';
import { COMMAND_SPECS, type CommandName } from './commands.ts';
import { warningLines } from './warnings.ts';
import { tokenizerWarnings } from '../text/tokenizer-check.ts';
import { goneDiaryDirText } from '../diary/errors.ts';
import { terminalSafe } from '../diary/sanitize.ts';
import { decodeText } from '../diary/textfile.ts';
import enginePackage from '../../package.json' with { type: 'json' };

const USAGE = `engram — long-term memory for LLM agents

usage: engram <command> [options]
       engram <command> --help        该命令的用法和全部选项 / that command's usage and every option it takes
       engram --version

commands:
  index [--incremental] [--warnings]
                                  rebuild the index from the diary folder (--incremental: changed files only;
                                  --warnings: every file warning, not counts by kind)
  recall "QUERY" [--k N] [--workspace ID]
                                  what would be injected for QUERY, with its explanation
  recall --stdin --json           one query per input line, one JSON object per output line
  write (--content C | --stdin) [--title T] [--folder F] [--tags a,b] [--summary S] [--kind K] [--goal G]
                                  create a memory (title: --title, else the text's first line; refuses a taken title;
                                  --kind fact|pref|lesson|task|proj, --goal: what a task is meant to achieve)
  edit ID --target OLD --replace NEW
                                  change one passage of a memory (OLD must occur exactly once)
  forget ID                       archive a memory (moves it to the archive folder)
  list [--archived] [--workspace ID] [--limit N] [--offset N] [--all]
                                  list memories (of a workspace + global), newest first, 50 at a time
                                  (--json: all of them unless --limit)
  status [--warnings]             index and corpus status
  migrate-legacy SRC DST          convert front-matter .md files into .txt diaries (idempotent)
  sessions [--cwd D]              past DSH sessions of a folder's workspace, with import status
  import-sessions (ID… | --all) [--cwd D] [--thinking]
                                  import past sessions as memories of that workspace, one per topic
                                  (idempotent; --thinking keeps the model's reasoning of each turn)
  serve [--port N] [--host H]     start the console
  mcp [--http [--port N]] [--workspace ID]
                                  MCP server (stdio; --http: Streamable HTTP on 127.0.0.1, console token) — docs/mcp.md
  model install|status [--from DIR|URL]  the local embedding model (+ ONNX runtime), in the user's model cache
                                  (ENGRAM_MODEL_CACHE, else ~/.cache/engram/models)

common options:
  --diary-dir D   --data-dir D   --legacy-dir D   --database-url URL   --config FILE   --json
  --switch-diary-dir   point the data dir at another diary folder on purpose (its index follows the new folder;
                       without it a data dir refuses a folder other than the one it was built from)
environment: ENGRAM_DIARY_DIR, ENGRAM_DATA_DIR, ENGRAM_DATABASE_URL, ENGRAM_CONFIG, ENGRAM_SWITCH_DIARY_DIR=1, ENGRAM_EMBEDDING_* (see README)`;

class UsageError extends Error {}

type Values = Record<string, string | boolean | undefined>;

/** A command's arguments, by the options of its spec (commands.ts), which its --help lists. */
function parse(spec: CommandSpec, args: string[]): { values: Values; positionals: string[] } {
  return parseCommandArgs(spec, args, (message) => new UsageError(message), { allowPositionals: true });
}

function checkDir(flag: string, value: string | undefined): void {
  if (value === undefined) return;
  if (!existsSync(value)) throw new UsageError(`${flag}：文件夹不存在：${value}（先创建它）/ directory does not exist: ${value}`);
  if (!statSync(value).isDirectory()) throw new UsageError(`${flag}：不是文件夹：${value} / not a directory: ${value}`);
}

async function withEngine<T>(values: Record<string, unknown>, fn: (e: Engine) => Promise<T>, opts: { syncOnOpen?: boolean; /** false: this command embeds new chunks itself (index). */ embedLater?: boolean } = {}): Promise<T> {
  checkDir('--diary-dir', values['diary-dir'] as string | undefined);
  checkDir('--legacy-dir', values['legacy-dir'] as string | undefined);
  const options: Record<string, unknown> = {};
  if (values['diary-dir']) options.diaryDir = resolve(String(values['diary-dir']));
  if (values['data-dir']) options.dataDir = resolve(String(values['data-dir']));
  if (values['legacy-dir']) options.legacyDir = resolve(String(values['legacy-dir']));
  if (values['database-url']) options.databaseUrl = String(values['database-url']);
  // Flags beat env: clear the env variables that a flag overrides.
  const env = { ...process.env };
  if (options.diaryDir) delete env.ENGRAM_DIARY_DIR;
  if (options.dataDir) delete env.ENGRAM_DATA_DIR;
  if (options.legacyDir) delete env.ENGRAM_LEGACY_DIR;
  if (options.databaseUrl) delete env.ENGRAM_DATABASE_URL;
  const { openEngine } = await import('../engine.ts');
  // A sync that stores many notes (the first command after an upgrade that changed the terms
  // re-tokenises all of them) is drawn on a terminal; the few changed files of a usual open are not.
  const tty = process.stderr.isTTY && !values.json;
  let drawn = false;
  // preload false: a one-shot command loads the IDF table when (and only if) it recalls.
  const engine = await openEngine({
    options,
    env,
    configFile: values.config as string | undefined,
    syncOnOpen: opts.syncOnOpen,
    onSyncProgress: (p) => {
      if (!tty || p.phase !== 'store' || p.total < SYNC_PROGRESS_FROM) return;
      process.stderr.write(`\r${progressBar('indexing', p.done, p.total)}`);
      drawn = true;
    },
    preload: false,
    // The model loads only if the command needs a vector (a semantic recall, `index`); a write leaves its new chunks to the process holding the index, or `engram index`.
    model: { load: 'on-demand', embedLater: opts.embedLater ?? true },
    switchDiaryDir: values['switch-diary-dir'] === true,
  });
  if (drawn) process.stderr.write('\n');
  try {
    return await fn(engine);
  } finally {
    await engine.closeBeforeExit();
  }
}

/** Notes a sync on open stores before the CLI draws its progress. */
const SYNC_PROGRESS_FROM = 200;

/** Every line printed: memory text (titles, paths, warnings) never reaches the terminal as raw escape codes. */
const out = (s: string) => process.stdout.write(`${terminalSafe(s)}\n`);
const err = (s: string) => process.stderr.write(`${terminalSafe(s)}\n`);

async function cmdIndex(args: string[]) {
  const { values } = parse(COMMAND_SPECS.index, args);
  const tty = process.stderr.isTTY && !values.json;
  await withEngine(
    values,
    async (engine) => {
      const report = await engine.index({
        full: !values.incremental,
        onProgress: (p) => {
          if (tty && p.total > 0) process.stderr.write(`\r${progressBar(p.phase, p.done, p.total)}`);
        },
      });
      if (tty) process.stderr.write('\n');
      if (values.json) printJson(report);
      else {
        out(`indexed ${report.documents} documents, ${report.chunks} chunks in ${report.ms} ms (${report.mode})`);
        out(`added ${report.added}, updated ${report.updated}, removed ${report.removed}, unchanged ${report.unchanged}`);
        out(`semantic: ${report.semantic.skipped ?? `embedded ${report.semantic.embedded}, reused ${report.semantic.reused}, degraded batches ${report.semantic.degradedBatches}`}`);
        for (const line of warningLines(report.warnings, 'index', values.warnings === true)) out(line);
        for (const s of report.skipped) out(`skipped: ${s.path}: ${s.reason}`);
      }
    },
    { syncOnOpen: false, embedLater: false },
  );
}

async function cmdRecall(args: string[]) {
  const { values, positionals } = parse(COMMAND_SPECS.recall, args);
  const k = countOption(values.k, '--k', 1, 100);
  const only = values.only as string | undefined;
  if (only !== undefined && only !== 'lexical' && only !== 'semantic') throw new UsageError('--only 只能是 lexical 或 semantic / --only must be lexical or semantic');
  if (!values.stdin && positionals.length === 0) throw new UsageError('recall 需要一个查询（QUERY）或 --stdin / recall needs a QUERY argument or --stdin');
  await withEngine(values, async (engine) => {
    await checkWorkspace(engine, values.workspace as string | undefined);
    // Recall is paused while the folder is gone, and an empty result alone reads as "nothing relevant".
    warnIfDiaryGone(engine);
    const run = async (q: string) => {
      const r = await engine.recall(q, { k, only: only as 'lexical' | 'semantic' | undefined, workspace: (values.workspace as string | undefined) ?? null });
      if (values.json) printJson(recallJson(r));
      else out(recallText(r));
    };
    if (values.stdin) {
      // Loaded here: every other command would pay for it.
      const { createInterface } = await import('node:readline');
      const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
      for await (const line of rl) await run(line);
    } else await run(positionals.join(' '));
  });
}

/**
 * The text piped in: UTF-8, or UTF-16 / UTF-8 by its BOM (as a diary file is read). Anything else is
 * refused before a word is written: read as UTF-8, GBK bytes would become U+FFFD and the person's words
 * could not be recovered from the file.
 */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  const decoded = decodeText(Buffer.concat(chunks));
  if (!decoded.ok) {
    throw new EngramError(
      'bad-input',
      `标准输入不是 UTF-8 文本（${decoded.reason}），没有写入任何内容：请先转换编码，例如 iconv -f GB18030 -t UTF-8 / standard input is not UTF-8 text (${decoded.reason}); nothing was written: convert it first, e.g. iconv -f GB18030 -t UTF-8`,
    );
  }
  return decoded.text.replace(/^\uFEFF/, '');
}

async function cmdWrite(args: string[]) {
  const { values } = parse(COMMAND_SPECS.write, args);
  const content = values.stdin ? await readStdin() : (values.content as string | undefined);
  if (!content || content.trim() === '') throw new UsageError('write 需要 --content 文本或 --stdin / write needs --content TEXT or --stdin');
  await withEngine(values, async (engine) => {
    const r = await engine.write({
      title: values.title as string | undefined,
      content,
      folder: values.folder as string | undefined,
      summary: values.summary as string | undefined,
      tags: values.tags ? String(values.tags).split(/[,，]/).map((s) => s.trim()).filter(Boolean) : undefined,
      ...(values.kind !== undefined || values.goal !== undefined ? { meta: { kind: values.kind as string | undefined, goal: values.goal as string | undefined } } : {}),
    }).catch((e: unknown) => {
      throw withEditHint(e);
    });
    if (values.json) printJson(r);
    else {
      out(`wrote ${r.path} (${r.docId})`);
      for (const w of r.warnings) out(`warning: ${w}`);
    }
  }, { syncOnOpen: false });
}

/** A taken title, told with the CLI's way to change the memory that holds it. */
function withEditHint(e: unknown): unknown {
  if (!isEngramError(e) || e.code !== 'title-exists' || typeof e.details?.docId !== 'string') return e;
  const { docId, title } = e.details as { docId: string; title: string };
  return new EngramError(
    'title-exists',
    `已有同名记忆「${title}」(${docId}),没有写第二篇:用 engram edit ${docId} --target 原文 --replace 新文 修改它,或用 --title 换一个标题。` +
      ` / a memory titled "${title}" already exists (${docId}): change it with engram edit ${docId} --target OLD --replace NEW, or choose another --title`,
    e.details,
  );
}

async function cmdEdit(args: string[]) {
  const { values, positionals } = parse(COMMAND_SPECS.edit, args);
  if (positionals.length !== 1) throw new UsageError('edit 需要且只要一个 ID（docId、路径或文件 id）/ edit needs exactly one ID (docId, path or file id)');
  if (values.target === undefined || values.replace === undefined) throw new UsageError('edit 需要 --target 和 --replace / edit needs --target and --replace');
  await withEngine(values, async (engine) => {
    await indexNamedFile(engine, positionals[0]!);
    const r = await engine.edit(positionals[0]!, String(values.target), String(values.replace));
    if (values.json) printJson(r);
    else out(`edited ${r.path} (${r.strategy} match)`);
  }, { syncOnOpen: false });
}

/**
 * When `idOrPath` names a diary file (relative to the folder, or absolute inside it), index that file
 * first: edit and forget open without a sync, for speed, and a memory written by hand was not-found
 * to them until another command synced the folder. The files are the truth.
 */
async function indexNamedFile(engine: Engine, idOrPath: string): Promise<void> {
  const root = engine.config.diaryDir;
  const full = resolve(root, idOrPath);
  const rel = relative(root, full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || !existsSync(full) || !statSync(full).isFile()) return;
  await engine.index({ full: false, paths: [rel.split('\\').join('/')], embed: 'background' });
}

async function cmdForget(args: string[]) {
  const { values, positionals } = parse(COMMAND_SPECS.forget, args);
  if (positionals.length !== 1) throw new UsageError('forget 需要且只要一个 ID / forget needs exactly one ID');
  await withEngine(values, async (engine) => {
    await indexNamedFile(engine, positionals[0]!);
    const r = await engine.forget(positionals[0]!).catch(alreadyArchived);
    if ('title' in r) {
      const { title, ...result } = r;
      if (values.json) printJson(result);
      else out(`已经归档过了：「${title}」在日记文件夹的 ${r.to} / already archived: "${title}" is at ${r.to} in the diary folder`);
    } else if (values.json) printJson(r);
    else out(`archived ${r.from} → ${r.to}`);
  }, { syncOnOpen: false });
}

/**
 * A forget of a memory already archived succeeds, saying where it is: what was asked for is so (the
 * memory is archived), and forget is run again as import-sessions and migrate-legacy are, by a script
 * over a list, a retry — a failure there would stop it for nothing. Exit 0, as the first forget.
 * Its JSON is the first forget's ({docId, from, to}) and `alreadyArchived: true`.
 */
function alreadyArchived(e: unknown): { docId: string; from: string | null; to: string; alreadyArchived: true; title: string } {
  if (!isEngramError(e) || e.code !== 'already-archived' || typeof e.details?.path !== 'string') throw e;
  const { docId, from, path, title } = e.details as { docId: string; from: string | null; path: string; title: string };
  return { docId, from, to: path, alreadyArchived: true, title };
}

/** Memories a text `list` prints unless told otherwise: a store of 50,000 printed all of them. */
const LIST_PAGE = 50;

/** A whole number from `min` (to `max`) from an option, or undefined when it was not given. */
function countOption(value: unknown, name: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${name} 要是${max === Number.MAX_SAFE_INTEGER ? `不小于 ${min} 的整数` : ` ${min} 到 ${max} 之间的整数`}，收到的是 "${String(value)}" / ${name} must be a whole number ${max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`}, got "${String(value)}"`);
  }
  return n;
}

async function cmdList(args: string[]) {
  const { values } = parse(COMMAND_SPECS.list, args);
  const limit = countOption(values.limit, '--limit', 1);
  const offset = countOption(values.offset, '--offset', 0) ?? 0;
  // Scripts read the whole list as before; a person reads a page and is told how to see the rest.
  const pageSize = values.all || (values.json && limit === undefined) ? Number.MAX_SAFE_INTEGER : (limit ?? LIST_PAGE);
  await withEngine(values, async (engine) => {
    await checkWorkspace(engine, values.workspace as string | undefined);
    // The index is listed as it is (nothing is lost; a drive may be remounting), but not as if its files were there.
    warnIfDiaryGone(engine);
    const page = await engine.listPage({ includeArchived: Boolean(values.archived), workspace: (values.workspace as string | undefined) ?? null, offset, limit: pageSize, order: 'list' });
    if (values.json) {
      printJson(page.items);
      return;
    }
    for (const m of page.items) out(`${m.docId}  ${m.date}  ${m.archived ? '[archived] ' : ''}${m.title}  (${m.path}, ${m.chunks} chunks)`);
    const shown = offset + page.items.length;
    if (page.items.length > 0 && (offset > 0 || shown < page.total)) {
      const more = shown < page.total ? `; next: engram list --offset ${shown}${limit !== undefined ? ` --limit ${limit}` : ''} (every one: --all)` : '';
      out(`${offset + 1}–${shown} of ${page.total.toLocaleString('en-US')}${more}`);
    } else if (page.items.length === 0 && page.total > 0) out(`nothing from ${offset + 1} on: ${page.total.toLocaleString('en-US')} in all`);
  });
}

async function cmdStatus(args: string[]) {
  const { values } = parse(COMMAND_SPECS.status, args);
  await withEngine(values, async (engine) => {
    const s = await engine.status();
    if (values.json) printJson(s);
    else {
      // First: nothing else in the status matters to a person whose diary folder is gone.
      if (s.diaryMissing) out(`WARNING ${s.diaryMissing.message}`);
      out(`documents ${s.documents} (archived ${s.archived}), chunks ${s.chunks}, vectors ${s.vectors}`);
      const tok = s.tokenizer;
      out(`tokenizer ${tok.active} (configured ${tok.configured}; index built with ${tok.builtWith ?? 'nothing yet'}${tok.fallbackReason ? `; fallback: ${tok.fallbackReason}` : ''})`);
      // The warning the status lists (text/tokenizer-check.ts), as a headline: an older tokenizer's
      // terms want an index run; another tokenizer wants every process to use one.
      const mismatch = tok.mismatch ? tokenizerWarnings(tok.builtWith, { engine: tok.active, fallbackReason: tok.fallbackReason })[0] : undefined;
      if (mismatch) out(`WARNING ${mismatch}`);
      out(`semantic ${s.semantic.state}${s.semantic.reason ? `: ${s.semantic.reason}` : ''}`);
      const judge = s.judge;
      out(`judge ${judge.state}${judge.reason && (judge.state !== 'off' || judge.reason !== 'judge disabled') ? `: ${judge.reason}` : ''}${judge.lastLatencyMs !== null ? `; last call ${judge.lastLatencyMs} ms at ${judge.lastAt}` : ''}${judge.proxy ? `; via proxy ${judge.proxy}` : ''}`);
      out(`built at ${s.builtAt ?? 'never'}; diary ${s.diaryDir}; data ${s.dataDir}`);
      for (const line of warningLines(s.warnings.filter((w) => w !== mismatch), 'status', values.warnings === true)) out(line);
    }
  }, { syncOnOpen: false });
}

async function cmdMigrate(args: string[]) {
  const { values, positionals } = parse(COMMAND_SPECS['migrate-legacy'], args);
  if (positionals.length !== 2) throw new UsageError('migrate-legacy 需要源（SRC）和目标（DST）两个文件夹 / migrate-legacy needs SRC and DST directories');
  const [src, dst] = positionals as [string, string];
  checkDir('SRC', src);
  const { migrateLegacy } = await import('../diary/migrate.ts');
  const report = await migrateLegacy(resolve(src), resolve(dst));
  if (values.json) printJson(report);
  else {
    out(`migrated ${report.migrated.length}, skipped ${report.skipped.length}`);
    for (const s of report.skipped) out(`skipped: ${s.src}: ${s.reason}`);
  }
}

/** With the data dir's diary folder gone, status's line first, on stderr: stdout stays the result a script parses. */
function warnIfDiaryGone(engine: Engine): void {
  const gone = engine.diaryFolderGone();
  if (gone) err(`WARNING ${goneDiaryDirText(gone.dir)}`);
}

/**
 * A --workspace there is no workspace of is a usage error, as a --diary-dir that does not exist is
 * (exit 2, no error code): the check is the registry's, the one every adapter asks.
 */
async function checkWorkspace(engine: Engine, id: string | undefined): Promise<void> {
  if (id === undefined) return;
  const { WorkspaceRegistry } = await import('../workspace/registry.ts');
  await new WorkspaceRegistry(engine).requireKnown(id).catch((e: unknown) => {
    throw isEngramError(e) && e.code === 'unknown-workspace' ? new UsageError(e.message) : e;
  });
}

/** The workspace a folder is (registered on first use, claimed after a rename like the plugin does). */
async function workspaceOfFolder(engine: Engine, cwd: string) {
  const { WorkspaceRegistry } = await import('../workspace/registry.ts');
  return new WorkspaceRegistry(engine).resolve(cwd);
}

async function cmdSessions(args: string[]) {
  const { values } = parse(COMMAND_SPECS.sessions, args);
  const cwd = resolve((values.cwd as string | undefined) ?? process.cwd());
  await withEngine(values, async (engine) => {
    const { PastSessions } = await import('../sessions/past-sessions.ts');
    const list = await new PastSessions(engine).list({ cwd });
    if (values.json) printJson(list);
    else if (list.length === 0) out(`no DSH sessions for ${cwd}`);
    else for (const s of list) out(`${s.id}  ${s.startedAt ? new Date(s.startedAt).toISOString().slice(0, 16).replace('T', ' ') : '?'}  ${String(s.turns).padStart(3)} turns  [${s.status}]  ${s.title}`);
  }, { syncOnOpen: false });
}

async function cmdImportSessions(args: string[]) {
  const { values, positionals } = parse(COMMAND_SPECS['import-sessions'], args);
  const cwd = resolve((values.cwd as string | undefined) ?? process.cwd());
  if (positionals.length === 0 && !values.all) throw new UsageError('import-sessions 需要会话 id（见 engram sessions）或 --all / import-sessions needs session ids (see engram sessions) or --all');
  await withEngine(values, async (engine) => {
    const { PastSessions } = await import('../sessions/past-sessions.ts');
    const past = new PastSessions(engine);
    const ids = values.all ? (await past.list({ cwd })).filter((s) => s.status === 'new' || s.status === 'changed').map((s) => s.id) : positionals;
    if (ids.length === 0) {
      if (values.json) printJson({ imported: 0, updated: 0, skipped: 0, empty: 0, failed: [] });
      else out('nothing to import');
      return;
    }
    const workspace = await workspaceOfFolder(engine, cwd);
    const tty = !values.json && process.stderr.isTTY;
    const report = await past.import(ids, {
      workspace: workspace.id,
      thinking: values.thinking === true,
      onProgress: (done, total) => tty && process.stderr.write(`\r${progressBar('import', done, total)}`),
    });
    if (tty) process.stderr.write('\n');
    if (values.json) printJson({ workspace: workspace.id, ...report });
    else {
      out(`workspace ${workspace.name} (${workspace.id}): memories imported ${report.imported}, updated ${report.updated}, skipped ${report.skipped}; empty sessions ${report.empty}; failed ${report.failed.length}`);
      for (const f of report.failed) out(`failed: ${f.sessionId}: ${f.error}`);
    }
  }, { syncOnOpen: false });
}

async function cmdServe(args: string[]) {
  const { values } = parse(COMMAND_SPECS.serve, args);
  const { serveConsole } = await import('./serve.ts');
  await serveConsole({
    port: values.port as string | undefined,
    host: values.host as string | undefined,
    diaryDir: values['diary-dir'] as string | undefined,
    dataDir: values['data-dir'] as string | undefined,
    switchDiaryDir: values['switch-diary-dir'] === true,
    config: values.config as string | undefined,
    databaseUrl: values['database-url'] as string | undefined,
    legacyDir: values['legacy-dir'] as string | undefined,
  });
}

const COMMANDS: Record<CommandName, (args: string[]) => Promise<void>> = {
  index: cmdIndex,
  recall: cmdRecall,
  write: cmdWrite,
  edit: cmdEdit,
  forget: cmdForget,
  list: cmdList,
  status: cmdStatus,
  'migrate-legacy': cmdMigrate,
  sessions: cmdSessions,
  'import-sessions': cmdImportSessions,
  serve: cmdServe,
  mcp: (a) => import('../mcp/command.ts').then((m) => m.cmdMcp(a)).catch((e: Error) => Promise.reject(e.name === 'McpUsageError' ? new UsageError(e.message) : e)),
  model: (a) => import('./model.ts').then((m) => m.cmdModel(a)).catch((e: Error) => Promise.reject(e.name === 'ModelUsageError' ? new UsageError(e.message) : e)),
};

/** Own keys only: `engram constructor` is not a command. */
const isCommand = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

export async function main(argv: string[]): Promise<number> {
  // `engram help model` asks what `engram model --help` does.
  const [command, ...rest] = argv[0] === 'help' && argv.length > 1 ? [argv[1] as string, '--help'] : argv;
  if (command === '--version' || command === '-V' || command === 'version') {
    out(enginePackage.version);
    return 0;
  }
  if (!command || command === '--help' || command === '-h' || command === 'help') {
    out(USAGE);
    return command ? 0 : 2;
  }
  if (!isCommand(command)) {
    const meant = nearestSpelling(command, Object.keys(COMMANDS));
    err(meant ? `engram：没有 "${command}" 这个命令，是不是 ${meant}？/ unknown command "${command}": did you mean ${meant}?` : `engram：没有 "${command}" 这个命令（见 engram --help）/ unknown command "${command}" (try engram --help)`);
    return 2;
  }
  if (asksForHelp(COMMAND_SPECS[command], rest)) {
    out(commandHelp(COMMAND_SPECS[command]));
    return 0;
  }
  const fn = COMMANDS[command];
  try {
    await fn(rest);
    return 0;
  } catch (e) {
    if (e instanceof UsageError) err(`engram ${command}: ${e.message}`);
    else if (isEngramError(e)) err(`engram ${command}: ${e.message} [${e.code}]`);
    else err(`engram ${command}: ${errorMessage(e)}`);
    return e instanceof UsageError ? 2 : 1;
  }
}

export { EngramError };
