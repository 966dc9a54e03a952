// The one wording of an error from node's option parser, for every command (engram, engram mcp,
// engram model): one line — the parser may explain over several — opening in Chinese with the help
// command that lists the options (`engram <command> --help`, command-spec.ts).
import { errorMessage } from '../errors.ts';

export function parserError(e: unknown, help: string): string {
  return `参数有误（${help} 列出全部选项）/ ${errorMessage(e).replace(/\. To specify.*$/, '').replace(/\s*\n\s*/g, ' ')}`;
}
