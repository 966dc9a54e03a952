// Which URL the console iframe loads. Pure.
//   direct — the console on its own origin. rc.8's web host sets no frame policy, so it loads, as
//            long as the console lets this page frame it (console.allowedOrigins).
//   proxy  — the console through the plugin's host route: same origin as the host page, so neither
//            mixed content nor the console's frame-ancestors policy stands in the way.

export type ConsoleSource = 'direct' | 'proxy';

export interface ClientConfig {
  consoleUrl: string;
  proxyPath: string;
  startPath: string;
  /** POST here for "look again" across compaction (older hosts' plugins did not send it). */
  recheckPath?: string;
  /** GET here for the plugin's log file name and last lines. */
  logsPath?: string;
  tokenHeader: string;
  token: string;
  reachable: boolean;
  /** A console.command is configured: the start button can work. */
  startable?: boolean;
  /** The plugin's own light view, shown while the full console is not running. */
  viewPath?: string;
}

export function chooseSource(pageProtocol: string | undefined, consoleUrl: string, preferred?: ConsoleSource | null): ConsoleSource {
  if (preferred === 'direct' || preferred === 'proxy') return preferred;
  // An https page cannot frame an http console (mixed content); through the host it is same-origin.
  if (pageProtocol === 'https:' && consoleUrl.startsWith('http:')) return 'proxy';
  return 'direct';
}

type SourceConfig = Pick<ClientConfig, 'consoleUrl' | 'proxyPath'> & Partial<Pick<ClientConfig, 'reachable' | 'viewPath'>>;

/** While the full console is not running, the plugin's light view (a dead frame helps no one). */
const lightView = (config: SourceConfig): string | null => (config.reachable === false && config.viewPath ? config.viewPath : null);

export function iframeSrc(source: ConsoleSource, config: SourceConfig): string {
  return lightView(config) ?? (source === 'direct' ? `${config.consoleUrl.replace(/\/+$/, '')}/` : config.proxyPath);
}

export function describeSource(source: ConsoleSource, config: SourceConfig): string {
  if (lightView(config)) return '插件内置简易视图(完整控制台未运行)';
  return source === 'direct' ? `直连 ${config.consoleUrl}` : `经宿主代理 ${config.proxyPath}`;
}
