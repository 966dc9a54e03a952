// The one wording of an error from node's option parser, for every command (engram, engram mcp,
// engram model): one line — the parser may explain over several — saying what is wrong in Chinese,
// then in English, with the help command that lists the options (`engram <command> --help`,
// command-spec.ts) and, for a mistyped option, the one most likely meant.
import { errorMessage } from '../errors.ts';
import { nearestSpelling } from '../text/nearest.ts';

/** What node's parser found wrong, said in both languages (its English alone named the option, in Chinese nothing). */
function whatIsWrong(e: unknown, options: readonly string[], args: readonly string[]): { zh: string; en: string } | null {
  const code = (e as { code?: unknown } | null)?.code;
  const message = errorMessage(e);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = message.match(/'(-[^']*)'/)?.[1];
    if (!option) return null;
    const meant = option.startsWith('--') ? nearestSpelling(option.slice(2), options) : null;
    return meant
      ? { zh: `没有 ${option} 这个选项，是不是 --${meant}？`, en: `unknown option '${option}' (did you mean '--${meant}'?)` }
      : { zh: `没有 ${option} 这个选项`, en: `unknown option '${option}'` };
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = message.match(/--[\w-]+/)?.[0];
    if (!option) return null;
    if (/argument missing/.test(message)) return { zh: `${option} 需要一个值`, en: `option '${option}' needs a value` };
    if (/ambiguous/.test(message)) {
      // node's advice shows a placeholder (-XYZ): the value typed follows the option.
      const at = args.indexOf(option);
      const value = at >= 0 && at + 1 < args.length ? (args[at + 1] as string) : '-…';
      return { zh: `${option} 的值以 - 开头，请写成 ${option}=${value}`, en: `the value of '${option}' starts with a dash: write it as '${option}=${value}'` };
    }
    if (/does not take an argument/.test(message)) return { zh: `${option} 不带值`, en: `option '${option}' takes no value` };
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const argument = message.match(/'([^']*)'/)?.[1];
    if (argument !== undefined) return { zh: `多了一个参数 ${argument}`, en: `unexpected argument '${argument}'` };
  }
  return null;
}

/** One line, Chinese first; `options`: the command's option names, for "did you mean"; `args`: what was typed. */
export function parserError(e: unknown, help: string, options: readonly string[] = [], args: readonly string[] = []): string {
  const wrong = whatIsWrong(e, options, args);
  if (wrong) return `参数有误：${wrong.zh}（${help} 列出全部选项）/ ${wrong.en}`;
  return `参数有误（${help} 列出全部选项）/ ${errorMessage(e).replace(/\. To specify.*$/s, '').replace(/\s*\n\s*/g, ' ')}`;
}
