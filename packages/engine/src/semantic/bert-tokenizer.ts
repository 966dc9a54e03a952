// A BERT WordPiece tokenizer read from a model folder's vocab.txt and tokenizer_config.json, giving
// the ids the model runtime's tokenizer gives (test/semantic/bert-tokenizer.test.ts compares them on
// thousands of texts). A one-shot semantic recall loaded the runtime's whole tokenizer library and
// parsed the 440 KB tokenizer.json into maps for one question; this reads the 110 KB vocabulary.
// Only the BertTokenizer configuration the bundled models use is accepted: anything else (another
// tokenizer class, lower-casing, accent stripping) returns null and the runtime's tokenizer is used.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface WordPieceTokenizer {
  encode(text: string, opts?: { add_special_tokens?: boolean }): number[];
}

const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;
const MAX_WORD_CHARS = 100;
const SUBWORD = '##';

/** The tokenizer of a BERT model folder, or null when the folder's tokenizer is not the configuration this implements. */
export function bertTokenizerOf(dir: string): WordPieceTokenizer | null {
  const configFile = join(dir, 'tokenizer_config.json');
  const vocabFile = join(dir, 'vocab.txt');
  if (!existsSync(configFile) || !existsSync(vocabFile)) return null;
  let config: Record<string, unknown>;
  try {
    config = JSON.parse(readFileSync(configFile, 'utf8')) as Record<string, unknown>;
  } catch {
    return null;
  }
  const bert =
    config.tokenizer_class === 'BertTokenizer' &&
    config.do_lower_case === false &&
    (config.strip_accents === null || config.strip_accents === false || config.strip_accents === undefined) &&
    config.tokenize_chinese_chars !== false &&
    config.do_basic_tokenize !== false &&
    (config.never_split === null || config.never_split === undefined) &&
    config.unk_token === '[UNK]' &&
    config.cls_token === '[CLS]' &&
    config.sep_token === '[SEP]';
  if (!bert) return null;
  const lines = readFileSync(vocabFile, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const vocab = new Map<string, number>();
  lines.forEach((word, id) => {
    if (!vocab.has(word)) vocab.set(word, id);
  });
  const ids = SPECIALS.map((s) => vocab.get(s));
  if (ids.some((id) => id === undefined)) return null;
  return new BertWordPiece(vocab);
}

class BertWordPiece implements WordPieceTokenizer {
  private readonly unk: number;
  private readonly cls: number;
  private readonly sep: number;
  private readonly specials: Map<string, number>;

  constructor(private readonly vocab: Map<string, number>) {
    this.unk = vocab.get('[UNK]')!;
    this.cls = vocab.get('[CLS]')!;
    this.sep = vocab.get('[SEP]')!;
    this.specials = new Map(SPECIALS.map((s) => [s, vocab.get(s)!]));
  }

  encode(text: string, opts: { add_special_tokens?: boolean } = {}): number[] {
    const out: number[] = [];
    if (opts.add_special_tokens !== false) out.push(this.cls);
    // Special tokens written in the text are those tokens, as the runtime's tokenizer reads them.
    let rest = text;
    while (rest.length > 0) {
      const at = nextSpecial(rest);
      if (at === null) {
        this.encodeSection(rest, out);
        break;
      }
      this.encodeSection(rest.slice(0, at.index), out);
      out.push(this.specials.get(at.token)!);
      rest = rest.slice(at.index + at.token.length);
    }
    if (opts.add_special_tokens !== false) out.push(this.sep);
    return out;
  }

  private encodeSection(section: string, out: number[]): void {
    if (section.length === 0) return;
    for (const word of preTokenize(normalize(section))) this.wordPiece(word, out);
  }

  /** Greedy longest-match-first over the vocabulary; a word with no split is [UNK]. */
  private wordPiece(word: string, out: number[]): void {
    const chars = [...word];
    if (chars.length > MAX_WORD_CHARS) {
      out.push(this.unk);
      return;
    }
    const pieces: number[] = [];
    for (let start = 0; start < chars.length; ) {
      let found: number | undefined;
      let end = chars.length;
      for (; end > start; end--) {
        const piece = chars.slice(start, end).join('');
        found = this.vocab.get(start > 0 ? SUBWORD + piece : piece);
        if (found !== undefined) break;
      }
      if (found === undefined) {
        out.push(this.unk);
        return;
      }
      pieces.push(found);
      start = end;
    }
    for (const p of pieces) out.push(p);
  }
}

function nextSpecial(text: string): { index: number; token: string } | null {
  let best: { index: number; token: string } | null = null;
  for (const token of SPECIALS) {
    const index = text.indexOf(token);
    if (index >= 0 && (best === null || index < best.index)) best = { index, token };
  }
  return best;
}

const CONTROL = /^[\p{Cc}\p{Cf}\p{Co}\p{Cs}]$/u;
const SPACE = /^\s$/;
const PUNCTUATION = String.raw`\p{P}\u0021-\u002F\u003A-\u0040\u005B-\u0060\u007B-\u007E`;
const WORDS = new RegExp(String.raw`[^\s${PUNCTUATION}]+|[${PUNCTUATION}]`, 'gu');

/** The BERT normaliser with clean_text and handle_chinese_chars, without lower-casing or accent stripping. */
function normalize(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    // Control characters go (tab, newline and return are spaces); so do NUL and U+FFFD.
    if (code === 0 || code === 0xfffd) continue;
    if (char !== '\t' && char !== '\n' && char !== '\r' && CONTROL.test(char)) continue;
    out += SPACE.test(char) ? ' ' : char;
  }
  // Each CJK ideograph of the basic plane stands alone (the runtime reads UTF-16 units here, so a
  // character outside the basic plane is left joined to its neighbours, as it does).
  let spaced = '';
  for (let i = 0; i < out.length; i++) {
    const code = out.charCodeAt(i);
    spaced += isChineseUnit(code) ? ` ${out[i]} ` : out[i];
  }
  return spaced;
}

const isChineseUnit = (cp: number): boolean => (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0xf900 && cp <= 0xfaff);

function preTokenize(text: string): string[] {
  return text.trim().match(WORDS) ?? [];
}
