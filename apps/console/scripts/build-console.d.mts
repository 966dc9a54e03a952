export declare const BUILD_NOTE: string;
export declare function buildWithProgress(options: {
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  out?: { write(s: string): unknown; isTTY?: boolean };
  tty?: boolean;
  tickMs?: number;
}): Promise<{ code: number; ms: number; output: string }>;
