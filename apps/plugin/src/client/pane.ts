// The tab body: the console in an iframe, a line saying which source is used (with a switch), and a
// start button when the console is not running. React comes from the host through the module
// loader's `require`, never bundled.
import { chooseSource, describeSource, iframeSrc, type ClientConfig, type ConsoleSource } from './source.ts';

export const CLIENT_CONFIG_PATH = '/engram/client-config';

interface ReactLike {
  createElement(type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]): unknown;
  useState<T>(initial: T): [T, (next: T | ((prev: T) => T)) => void];
  useEffect(effect: () => void | (() => void), deps?: unknown[]): void;
}

declare const require: (id: string) => unknown;

/** The host's React, through the loader's require (an ESM-shaped module is unwrapped). */
export function hostReact(): ReactLike {
  const mod = require('react') as ReactLike & { default?: ReactLike };
  return typeof mod?.createElement === 'function' ? mod : (mod.default as ReactLike);
}

const pageProtocol = (): string | undefined => (globalThis as { location?: { protocol?: string } }).location?.protocol;

async function loadConfig(): Promise<ClientConfig> {
  const res = await fetch(CLIENT_CONFIG_PATH, { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`${CLIENT_CONFIG_PATH} answered ${res.status}`);
  return (await res.json()) as ClientConfig;
}

const bar = { display: 'flex', gap: '8px', alignItems: 'center', padding: '6px 10px', fontSize: '12px', borderBottom: '1px solid rgba(128,128,128,.25)' };
const button = { fontSize: '12px', padding: '2px 8px', cursor: 'pointer' };

export function ConsolePane(): unknown {
  const React = hostReact();
  const h = React.createElement;
  const [config, setConfig] = React.useState<ClientConfig | null>(null);
  const [error, setError] = React.useState<string | null>(null);
  const [preferred, setPreferred] = React.useState<ConsoleSource | null>(null);
  const [note, setNote] = React.useState<string | null>(null);
  const [reloads, setReloads] = React.useState(0);

  React.useEffect(() => {
    let live = true;
    loadConfig().then(
      (c) => live && (setConfig(c), setError(null)),
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, [reloads]);

  if (error) return h('div', { style: { padding: '12px' }, 'data-engram': 'error' }, `Engram 控制台不可用:${error}`);
  if (!config) return h('div', { style: { padding: '12px' }, 'data-engram': 'loading' }, '正在读取 Engram 控制台地址…');

  const source = chooseSource(pageProtocol(), config.consoleUrl, preferred);
  const other: ConsoleSource = source === 'direct' ? 'proxy' : 'direct';
  const start = async () => {
    setNote('正在启动控制台…');
    try {
      const res = await fetch(config.startPath, { method: 'POST', credentials: 'same-origin', headers: { [config.tokenHeader]: config.token } });
      const body = (await res.json()) as { ok: boolean; message?: string };
      setNote(body.ok ? '控制台已启动,正在连接…' : `无法启动:${body.message ?? res.status}`);
      if (body.ok) setTimeout(() => setReloads((n) => n + 1), 1500);
    } catch (e) {
      setNote(`无法启动:${e instanceof Error ? e.message : String(e)}`);
    }
  };

  return h(
    'div',
    { style: { display: 'flex', flexDirection: 'column', height: '100%', width: '100%' }, 'data-engram': 'pane' },
    h(
      'div',
      { style: bar },
      h('span', { 'data-engram': 'source' }, `控制台:${describeSource(source, config)}`),
      h('button', { style: button, onClick: () => setPreferred(other), 'data-engram': 'switch' }, other === 'proxy' ? '改为经宿主代理' : '改为直连'),
      config.reachable ? null : h('button', { style: button, onClick: start, 'data-engram': 'start' }, '启动控制台'),
      note ? h('span', { 'data-engram': 'note' }, note) : null,
    ),
    h('iframe', { src: iframeSrc(source, config), title: 'Engram 控制台', style: { flex: '1 1 auto', border: '0', width: '100%' }, 'data-engram': 'frame' }),
  );
}
