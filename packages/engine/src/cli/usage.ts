// The one wording of an error from node's option parser, for every command (engram, engram mcp,
// engram model): one line — the parser may explain over several — opening in Chinese with where the
// options are listed.
import { errorMessage } from '../errors.ts';

export function parserError(e: unknown, help = 'engram --help'): string {
  return `参数有误（${help} 列出全部选项）/ ${errorMessage(e).replace(/\. To specify.*$/, '').replace(/\s*\n\s*/g, ' ')}`;
}
