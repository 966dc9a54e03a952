export interface StartModel {
  provider: 'auto' | 'none' | 'openai' | 'local' | string;
  id: string;
  installed: boolean;
  runtime: 'workspace' | 'cache' | 'data-dir' | 'missing';
  endpoint?: string;
  modelDir?: string;
}
export declare function consoleUrl(host: string, port: string | number): { url: string; wildcard: boolean };
export declare function engineFolders(url: string, options?: { fetchImpl?: typeof fetch; timeoutMs?: number }): Promise<{ diaryDir: string; dataDir: string } | null>;
export declare function warmUp(url: string, options?: { fetchImpl?: typeof fetch; timeoutMs?: number }): Promise<boolean>;
export declare function modelLine(model: StartModel): string;
export declare function startBlock(facts: { host: string; port: string | number; diaryDir: string; dataDir: string; model: StartModel }): string[];
export declare function isNextBanner(line: string, ready: boolean): boolean;
export declare function isNextReady(line: string): boolean;
