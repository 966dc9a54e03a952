// What `npm start` tells a person once the console answers: one short block with the address, the two
// folders, what recall will use, and how to stop. Chinese first, English after the dot, as the CLI's
// refusals are. The folders are the running engine's (engineFolders: the server's health answer), not
// the config file's: a diary folder moved from Settings lives in the data dir's settings, which only
// the engine reads. The rest is pure: the facts come from scripts/start.mjs.

/** The address a browser opens: a wildcard bind is reached through the loopback address. */
export function consoleUrl(host, port) {
  const wildcard = host === '0.0.0.0' || host === '::' || host === '[::]';
  const shown = wildcard ? '127.0.0.1' : host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return { url: `http://${shown}:${port}`, wildcard };
}

/**
 * The model line. `model` is what describeStart() found: the configured provider, whether the pinned
 * model is installed, and where the ONNX runtime comes from.
 */
export function modelLine(model) {
  switch (model.provider) {
    case 'none':
      return '已关闭（embedding.provider = none）：只用关键词召回 · off: lexical recall only';
    case 'openai':
      return `远程嵌入 ${model.endpoint || '(embedding.baseUrl 未设置)'}：语义 + 关键词召回 · remote embeddings: semantic + lexical recall`;
    case 'local':
      return `本地模型 ${model.modelDir || '(embedding.modelDir 未设置)'}：语义 + 关键词召回 · local model: semantic + lexical recall`;
    default:
      if (!model.installed) return `${model.id} 未安装：只用关键词召回；安装：npx engram model install 或 设置 → 安装模型 · not installed: lexical recall only`;
      if (model.runtime === 'missing') return `${model.id} 已安装，缺 ONNX 运行时：npx engram model install --runtime yes · installed, runtime missing: lexical recall only`;
      return `${model.id} 已安装：语义 + 关键词召回 · installed: semantic + lexical recall`;
  }
}

/**
 * The diary and data folders the console's engine opened, asked from the running server's health
 * query (which opens the engine if nothing has yet). Null when it does not answer them (the engine
 * failed to open: the server's log says why), so the caller can fall back to the config's.
 */
export async function engineFolders(url, { fetchImpl = fetch, timeoutMs = 120_000 } = {}) {
  try {
    const res = await fetchImpl(`${url}/api/trpc/system.health`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) return null;
    const data = (await res.json())?.result?.data;
    return typeof data?.diaryDir === 'string' && typeof data?.dataDir === 'string' ? { diaryDir: data.diaryDir, dataDir: data.dataDir } : null;
  } catch {
    return null;
  }
}

/**
 * Asks the running server once for what a person opens first — the page and the Library's first
 * rows — so "ready" means ready: the first request after a start otherwise pays for loading the
 * page's and the API's server code and the first listing (1.4–4 s at 5,000 memories, against
 * 0.3–0.4 s later). Best effort: a failure or a timeout only leaves that first load slower.
 */
export async function warmUp(url, { fetchImpl = fetch, timeoutMs = 60_000 } = {}) {
  const input = encodeURIComponent(JSON.stringify({ limit: 100 }));
  const paths = ['/', `/api/trpc/memories.page?input=${input}`];
  const results = await Promise.all(
    paths.map(async (path) => {
      try {
        const res = await fetchImpl(`${url}${path}`, { signal: AbortSignal.timeout(timeoutMs) });
        await res.arrayBuffer();
        return res.ok;
      } catch {
        return false;
      }
    }),
  );
  return results.every(Boolean);
}

/** The block itself, as lines. */
export function startBlock({ host, port, diaryDir, dataDir, model }) {
  const { url, wildcard } = consoleUrl(host, port);
  return [
    'Engram 控制台已就绪 · console ready',
    `  地址 url     ${url}${wildcard ? `（监听所有网卡 ${host} · listening on every interface）` : ''}`,
    `  日记 diary   ${diaryDir}`,
    `  数据 data    ${dataDir}`,
    `  模型 model   ${modelLine(model)}`,
    '  停止 stop    Ctrl+C',
  ];
}

/** Next's own start banner: the block above says the same things once. Anything else passes through. */
const NEXT_BANNER = [/^▲ Next\.js /, /^- (Local|Network|Environments|Experiments):/, /^\s+· /, /^✓ (Ready in|Starting)/, /^✓ Running next\.config\.\w+ took/];

// Next colours its banner when FORCE_COLOR is set (the test runner sets it for its children), even into a pipe.
// eslint-disable-next-line no-control-regex
const plain = (line) => line.replace(/\u001b\[[0-9;]*m/g, '');

/** A line of Next's banner; blank lines count only before Next is ready (they frame the banner). */
export const isNextBanner = (line, ready) => NEXT_BANNER.some((re) => re.test(plain(line))) || (!ready && plain(line).trim() === '');

/** Next says it is ready (the moment the block is printed). */
export const isNextReady = (line) => /^✓ Ready in /.test(plain(line));
