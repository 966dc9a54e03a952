// `engram mcp [--http [--port N] [--host H]] [--workspace ID]`: one engine, served to an MCP host
// over stdio (the host starts this command) or Streamable HTTP on loopback. stdout is the protocol
// channel in stdio mode, so everything else goes to stderr. The server ends when its host goes away
// (stdin closed, SIGTERM, SIGINT): the engine closes first, so no writer lock is left behind.
import { resolve } from 'node:path';
import { parseCommandArgs } from '../cli/command-spec.ts';
import { COMMAND_SPECS, MCP_DEFAULT_PORT } from '../cli/commands.ts';
import { isEngramError } from '../errors.ts';
import { stderrLogger } from '../log.ts';

export class McpUsageError extends Error {
  override name = 'McpUsageError';
}

export async function cmdMcp(args: string[]): Promise<void> {
  const { values } = parseCommandArgs(COMMAND_SPECS.mcp, args, (message) => new McpUsageError(message), { allowPositionals: false });
  const port = values.port === undefined ? MCP_DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new McpUsageError(`--port 要是 0 到 65535 之间的整数，收到的是 "${values.port}" / --port must be 0–65535, got "${values.port}"`);

  const env = { ...process.env };
  const options: Record<string, unknown> = {};
  if (values['diary-dir']) (options.diaryDir = resolve(String(values['diary-dir']))), delete env.ENGRAM_DIARY_DIR;
  if (values['data-dir']) (options.dataDir = resolve(String(values['data-dir']))), delete env.ENGRAM_DATA_DIR;
  if (values['database-url']) (options.databaseUrl = String(values['database-url'])), delete env.ENGRAM_DATABASE_URL;
  const { openEngine } = await import('../engine.ts');
  // A long-lived process like the plugin: it watches the folder, so writes by the plugin, the console
  // or the CLI on the same data dir are in its index within a second.
  const engine = await openEngine({ options, env, configFile: values.config as string | undefined, createDiaryDir: true, watch: true, log: stderrLogger('warn'), switchDiaryDir: values['switch-diary-dir'] === true });
  const workspace = (values.workspace as string | undefined) ?? null;
  // Every tool is scoped to it: an id there is no workspace of would serve the global memories only, quietly.
  if (workspace !== null) {
    const { WorkspaceRegistry } = await import('../workspace/registry.ts');
    try {
      await new WorkspaceRegistry(engine).requireKnown(workspace);
    } catch (e) {
      await engine.closeBeforeExit();
      throw isEngramError(e) && e.code === 'unknown-workspace' ? new McpUsageError(e.message) : e;
    }
  }

  // Calls in progress finish before the engine closes: a write the host started is saved (file and
  // index) and its lock released, even when the host is already gone.
  const inFlight = new Set<Promise<unknown>>();
  const track = (call: Promise<unknown>) => {
    inFlight.add(call);
    void call.catch(() => undefined).finally(() => inFlight.delete(call));
  };
  let closing: Promise<void> | null = null;
  const shutdown = () => (closing ??= Promise.allSettled([...inFlight]).then(() => engine.closeBeforeExit()).catch(() => undefined));
  const done = new Promise<void>((ok) => {
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => void shutdown().then(ok));
    if (!values.http) {
      process.stdin.once('end', () => void shutdown().then(ok));
      process.stdin.once('close', () => void shutdown().then(ok));
      // The CLI's EPIPE handler (bin/engram.js) exits at once, right for a one-shot command whose work
      // is done; a server whose host died while it answered may be inside a write: shut down instead.
      process.stdout.removeAllListeners('error');
      process.stdout.on('error', () => void shutdown().then(ok));
    }
  });

  if (values.http) {
    const { serveMcpHttp } = await import('./http.ts');
    const http = await serveMcpHttp(engine, { host: String(values.host), port, workspace, track });
    const address = http.address();
    const bound = typeof address === 'object' && address ? address.port : port;
    process.stderr.write(`engram mcp: Streamable HTTP on http://${values.host}:${bound}/mcp (header x-engram-token: the token in ${engine.config.dataDir}/console-token)\n`);
    await done;
    http.close();
    // Idle keep-alive connections would hold close() open and the process with it.
    http.closeAllConnections();
    return;
  }
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { createEngramMcpServer } = await import('./server.ts');
  const server = createEngramMcpServer(engine, { workspace, track });
  const transport = new StdioServerTransport();
  transport.onclose = () => void shutdown();
  await server.connect(transport);
  await done;
  await server.close().catch(() => undefined);
  process.stdin.destroy(); // the host is gone: nothing more to read, and the process may end
}
