// A guard before every tool call (the host's `tools/pre-execute` waterfall, packages/core/tools/src/
// index.ts in the host): a shell or file tool aimed at DSH's raw session logs
// ($DSH_HOME/sessions/…/*.zstd) is denied, and the model is pointed to the session tool. The logs are
// zstd frames: read raw they are binary noise or, decompressed, every event of a session at once
// (thinking, injected fragments, tool payloads), which floods the context; the session tool returns
// the turns, paged. Pure detection; the listener only adds the decision.
import { SESSION_LOG_FILES } from '@engram/engine';
import { TOOL_NAMES } from '../tools/memory-tools.ts';
import { LEAN_HISTORY_TOOL, LEAN_TOOL_NAMES, type ToolProfile } from '../tools/profiles.ts';
import { SESSION_READ_TOOL } from './tools.ts';

export type RawLogDecision = { kind: 'allow' } | { kind: 'deny'; reason: string };

/** Every string inside a tool's arguments (a command, a path, a list of paths, nested options). */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) stringsOf(v, out);
  return out;
}

const ZSTD_FILE = /\.(?:zstd|zst)\b|\*\.zs/;
const ZSTD_LOG_NAMES = SESSION_LOG_FILES.filter((name) => name.endsWith('.zstd'));
const slash = (p: string) => p.replace(/\\/g, '/').replace(/\/+$/, '');

/**
 * Whether a call's arguments aim at a raw session log: the log's file name anywhere, or a zstd file
 * (or a zstd glob) under the sessions folder of `dshHome` (also written as ~/.dsh or $DSH_HOME).
 */
export function aimsAtRawSessionLog(args: unknown, dshHome: string): boolean {
  const sessionsDirs = [`${slash(dshHome)}/sessions`, '$DSH_HOME/sessions', '${DSH_HOME}/sessions', '~/.dsh/sessions', '.dsh/sessions'];
  return stringsOf(args).some((text) => {
    const t = slash(text);
    // By name, wherever it is: the compressed names the host writes (the plain `session.jsonl` only under the sessions folder).
    if (ZSTD_LOG_NAMES.some((name) => t.includes(name))) return true;
    return ZSTD_FILE.test(t) && sessionsDirs.some((dir) => t.includes(dir));
  });
}

export interface RawLogGuardDeps {
  /** The DSH home in effect (sessions.dshHome, $DSH_HOME or ~/.dsh). */
  dshHome(): string;
  /** The offered tool profile: the session tool is named as the model knows it. */
  profile: ToolProfile;
  onDeny?(tool: string, readTool: string): void;
}

// Engram's own tools are never guarded (session_read reads these logs on the model's behalf).
const OWN_TOOLS: ReadonlySet<string> = new Set([...TOOL_NAMES, ...LEAN_TOOL_NAMES, SESSION_READ_TOOL, 'history_read']);

export function rawLogReason(readTool: string): string {
  return `[raw-session-log] DSH 的原始会话日志(.zstd)不直接读:那是压缩的事件流,读出来要么是乱码、要么一次塞进整个会话。请改用 ${readTool}:不给 id 列出本工作区的历史会话,给 id 按轮分页读取。`;
}

/** The `tools/pre-execute` listener: deny a raw-log read, else let the chain decide. */
export function rawLogGuard(deps: RawLogGuardDeps) {
  return async (exec: { name?: unknown; arguments?: unknown }, next: () => Promise<unknown>): Promise<unknown> => {
    const name = typeof exec?.name === 'string' ? exec.name : '';
    let aimed = false;
    try {
      aimed = !OWN_TOOLS.has(name) && aimsAtRawSessionLog(exec?.arguments, deps.dshHome());
    } catch {
      aimed = false; // a guard that fails must not stop the host's tools
    }
    if (!aimed) return next();
    const readTool = deps.profile === 'full' ? SESSION_READ_TOOL : LEAN_HISTORY_TOOL;
    deps.onDeny?.(name, readTool);
    return { kind: 'deny', reason: rawLogReason(readTool) } satisfies RawLogDecision;
  };
}
