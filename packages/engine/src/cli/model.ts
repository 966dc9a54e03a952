// `engram model install|status|key`: the local embedding model (and, when the product was installed
// without it, the ONNX runtime) in the per-user model cache (ENGRAM_MODEL_CACHE, else
// ~/.cache/engram/models; a model an older version put under the data directory is still read).
// Needs no database and no engine.
import { resolveBase } from '../config/resolve.ts';
import { EngramError } from '../errors.ts';
import { helpCommand, parseCommandArgs } from './command-spec.ts';
import { COMMAND_SPECS } from './commands.ts';
import { installModel, installedModel, verifyInstalled, type InstallProgress } from '../model/install.ts';
import { DEFAULT_MODEL, manifestKey } from '../model/manifest.ts';
import { cachedRuntimeDir, installRuntime, locateRuntime } from '../model/runtime.ts';
import { printJson, progressBar } from './output.ts';

export class ModelUsageError extends Error {
  override name = 'ModelUsageError';
}

const out = (s: string) => process.stdout.write(`${s}\n`);

function dataDirOf(values: Record<string, unknown>): string {
  const env = { ...process.env };
  const options: Record<string, unknown> = {};
  if (values['data-dir']) {
    options.dataDir = String(values['data-dir']);
    delete env.ENGRAM_DATA_DIR;
  }
  return resolveBase({ options, env, configFile: values.config as string | undefined }).base.dataDir;
}

export async function cmdModel(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  const spec = COMMAND_SPECS.model;
  const { values } = parseCommandArgs(spec, rest, (message) => new ModelUsageError(message), { allowPositionals: false });
  if (sub === 'key') {
    out(manifestKey());
    return;
  }
  if (sub !== 'install' && sub !== 'status') {
    const help = helpCommand(spec);
    throw new ModelUsageError(
      sub
        ? `没有 "${sub}" 这个子命令（有 install、status、key；${help} 列出全部选项）/ unknown subcommand "${sub}" (install, status or key; ${help} lists every option)`
        : `缺少子命令：install、status 或 key（${help} 列出全部选项）/ missing subcommand: install, status or key (${help} lists every option)`,
    );
  }
  const dataDir = dataDirOf(values);
  if (sub === 'status') return status(dataDir, values);

  const runtimeMode = String(values.runtime);
  if (!['auto', 'yes', 'no'].includes(runtimeMode)) throw new ModelUsageError('--runtime 只能是 auto、yes 或 no / --runtime must be auto, yes or no');
  const tty = process.stderr.isTTY && !values.json;
  const onProgress = (p: InstallProgress) => {
    if (!tty || p.phase === 'done') return;
    const total = p.total > 0 ? p.total : Math.max(p.done, 1);
    const label = p.phase === 'download' && p.total > 1000 ? `download ${(p.done / 1e6).toFixed(1)}/${(p.total / 1e6).toFixed(1)} MB` : p.phase;
    process.stderr.write(`\r${progressBar(label, Math.min(p.done, total), total)}`);
  };
  const report = await installModel({ dataDir, from: values.from as string | undefined, force: Boolean(values.force), onProgress });
  if (tty) process.stderr.write('\n');
  let runtime = locateRuntime(dataDir);
  let runtimeInstalled = false;
  if (runtimeMode === 'yes' || (runtimeMode === 'auto' && runtime.where === 'missing')) {
    if (tty) process.stderr.write(`installing the ONNX runtime for this platform under ${cachedRuntimeDir()}…\n`);
    const r = await installRuntime(dataDir, { onProgress: (done, total) => onProgress({ phase: 'download', done, total }) });
    if (tty) process.stderr.write(`\nONNX runtime: ${(r.downloadedBytes / 1e6).toFixed(1)} MB downloaded, ${(r.storedBytes / 1e6).toFixed(1)} MB stored\n`);
    runtime = locateRuntime(dataDir, { workspace: runtimeMode !== 'yes' });
    runtimeInstalled = true;
  }
  if (values.json) printJson({ ...report, runtime: runtime.where, runtimePath: runtime.path, runtimeInstalled });
  else {
    out(report.alreadyInstalled ? `model already installed and verified: ${report.dir}` : `installed ${DEFAULT_MODEL.id} (${report.files} files, ${(report.bytes / 1e6).toFixed(1)} MB, SHA-256 verified) from ${report.source} into ${report.dir} in ${report.ms} ms`);
    out(`ONNX runtime: ${runtime.where === 'missing' ? 'missing (run engram model install --runtime yes)' : `${runtime.where} (${runtime.path})`}`);
  }
}

async function status(dataDir: string, values: Record<string, unknown>): Promise<void> {
  const found = installedModel(dataDir);
  const check = values.verify ? await verifyInstalled(dataDir) : null;
  const runtime = locateRuntime(dataDir);
  const s = {
    model: DEFAULT_MODEL.id,
    key: manifestKey(),
    installed: found !== null,
    dir: found?.dir ?? null,
    pooling: found?.meta.pooling ?? null,
    source: found?.meta.source ?? null,
    installedAt: found?.meta.installedAt ?? null,
    verified: check ? check.ok : null,
    problems: check?.problems ?? [],
    runtime: runtime.where,
    runtimePath: runtime.path,
  };
  if (values.json) printJson(s);
  else {
    out(s.installed ? `model ${s.model}: installed at ${s.dir} (pooling ${s.pooling}, from ${s.source})` : `model ${s.model}: not installed (run engram model install)`);
    if (check) out(check.ok ? 'verified: every file matches its pinned SHA-256' : `verification failed: ${check.problems.join('; ')}`);
    out(`ONNX runtime: ${runtime.where}${runtime.path ? ` (${runtime.path})` : ''}`);
  }
  // A check that failed is a failure to whoever asked for it (a script reads the exit code).
  if (check && !check.ok) throw new EngramError('model-unverified', '模型文件校验没有通过（见上）；重新安装：engram model install / the model did not verify (above); reinstall with engram model install');
}
