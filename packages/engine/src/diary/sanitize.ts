// Characters that must not reach a diary from a write: terminal escape sequences and other control
// characters (printed raw by `engram list` they could rewrite the terminal), U+2028/U+2029 (JS
// regexes treat them as line ends: one in a tag made the Tag line unparseable and dropped every tag
// of the memory), bidi overrides (text that reads differently than it is stored), lone surrogates
// (silently turned into U+FFFD on write), and — in titles and tags — zero-width characters, which
// make two titles that look identical differ. Pure: no I/O. Each removal is reported so the write
// result can say what changed.

/** ESC/CSI sequences as terminals parse them: CSI … final byte, OSC … BEL/ST, or ESC + one byte. */
const ESCAPE_SEQUENCE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]?|(?:\u001b\]|\u009d)[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|\u001b[@-_]?/g;
/** C0 controls except tab / LF / CR, DEL, C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
/** C0 controls including tab / LF / CR (for one-line values). */
const CONTROL_INLINE = /[\u0000-\u001f\u007f-\u009f]/g;
const LINE_SEPARATORS = /[\u2028\u2029]/g;
/** Embeddings, overrides, isolates and the Arabic letter mark. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u061c]/g;
/** Zero-width space / non-joiner / joiner, LRM / RLM, word joiner, invisible operators, BOM, soft hyphen, Mongolian vowel separator. */
const ZERO_WIDTH = /[\u00ad\u180e\u200b-\u200f\u2060-\u2064\ufeff]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export interface Cleaned {
  text: string;
  /** What was taken out, for the warning ("2 × terminal escape sequence"). */
  removed: string[];
}

function strip(text: string, re: RegExp, label: string, removed: string[], replacement = ''): string {
  let n = 0;
  const out = text.replace(re, () => {
    n++;
    return replacement;
  });
  if (n > 0) removed.push(`${n} × ${label}`);
  return out;
}

/** A multi-line value (content, summary, body): tab and line breaks stay, zero-width characters too (emoji use ZWJ). */
export function cleanBlock(text: string): Cleaned {
  const removed: string[] = [];
  let t = strip(text, ESCAPE_SEQUENCE, 'terminal escape sequence 终端转义序列', removed);
  t = strip(t, CONTROL, 'control character 控制字符', removed);
  // A space, not a line feed: a line feed could split a Tag or Meta line and change the structure.
  t = strip(t, LINE_SEPARATORS, 'U+2028/U+2029 line separator 行分隔符 (→ space)', removed, ' ');
  t = strip(t, BIDI_CONTROLS, 'bidi override 双向控制符', removed);
  t = strip(t, LONE_SURROGATE, 'lone surrogate 孤立代理项', removed);
  return { text: t, removed };
}

/** A one-line value (title, tag): every control and invisible character goes; breaks become spaces. */
export function cleanInline(text: string): Cleaned {
  const removed: string[] = [];
  let t = strip(text, ESCAPE_SEQUENCE, 'terminal escape sequence 终端转义序列', removed);
  t = t.replace(/[\t\n\r]/g, ' ');
  t = strip(t, CONTROL_INLINE, 'control character 控制字符', removed);
  t = strip(t, LINE_SEPARATORS, 'U+2028/U+2029 line separator 行分隔符 (→ space)', removed, ' ');
  t = strip(t, BIDI_CONTROLS, 'bidi override 双向控制符', removed);
  t = strip(t, ZERO_WIDTH, 'zero-width character 零宽字符', removed);
  t = strip(t, LONE_SURROGATE, 'lone surrogate 孤立代理项', removed);
  return { text: t, removed };
}

/** The warning for a field that was cleaned, Chinese first. */
export function cleanedWarning(fieldZh: string, fieldEn: string, removed: readonly string[]): string {
  return `${fieldZh}中去掉了不可见或控制字符 / removed invisible or control characters from the ${fieldEn}: ${removed.join(', ')}`;
}

/**
 * How titles are compared: NFKC (full-width ＡＢＣ = ABC, compatibility forms folded), invisible and
 * control characters removed, whitespace collapsed. Titles that look the same compare the same.
 */
export function titleKey(title: string): string {
  // Most titles are printable ASCII, CJK ideographs and common CJK punctuation, which NFKC leaves as
  // they are and which hold nothing to clean: only spaces to collapse (a write compares its title
  // with every memory's, 5,000 keys in ~25 ms the slow way). test/diary/title-key.test.ts checks
  // every character of this set against the full path.
  if (PLAIN_TITLE.test(title)) return title.replace(/ +/g, ' ').trim();
  return cleanInline(title.normalize('NFKC')).text.replace(/\s+/g, ' ').trim();
}

/** Characters that NFKC and cleanInline leave unchanged (verified one by one in the test). */
export const PLAIN_TITLE = /^[\u0020-\u007e\u2010\u2012-\u2016\u2018-\u2023\u2027\u3001-\u3035\u3037\u303b-\u303f\u3400-\u4dbf\u4e00-\u9fff]*$/;

/**
 * Text made safe to print on a terminal: escape sequences, control characters (except tab and line
 * feed), line separators and bidi controls are shown as visible \uXXXX escapes instead of being
 * interpreted. Inside JSON text this is the same value (JSON has that escape), so one function
 * serves both output modes.
 */
export function terminalSafe(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
