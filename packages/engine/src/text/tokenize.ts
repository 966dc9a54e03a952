import type { Tokenizer, TokenizerKind } from '../types.ts';
import { lazyBundledJieba, loadUserDict, obtainJieba, type JiebaLoader, type JiebaSegmenter } from './jieba.ts';
import { latinTerms } from './latin.ts';
import { asReadForWords, foldToSimplified } from './script-fold.ts';
import { forEachRun } from './scripts.ts';
import { isStopWord } from './stopwords.ts';
import { mainlandWord, taiwanUserDictLines } from './taiwan-words.ts';

/**
 * How jieba segments a CJK run: 'cut' (one segmentation) or 'search' (cutForSearch: also the
 * dictionary words inside long words, 中华人民共和国 → 中华/人民/共和国/…).
 */
export type JiebaMode = 'search' | 'cut';

export interface TokenizerOptions {
  kind: TokenizerKind;
  /** jieba user dictionary lines: "word [freq] [tag]". Ignored in gram mode. */
  userDict?: readonly string[];
  /** Default 'cut'. */
  jiebaMode?: JiebaMode;
  /**
   * Let jieba's HMM join unknown characters into guessed words. Default false: the guess depends
   * on the neighbouring characters, so a name is joined one way in the question (尚恩有) and
   * another in the note (尚恩), and the two never match.
   */
  hmm?: boolean;
  /**
   * Also emit the bigrams of consecutive single characters jieba left unjoined (names, rare terms,
   * domain words missing from the dictionary such as 去重). Default true.
   */
  singleRunBigrams?: boolean;
  /** Replaces the @node-rs/jieba loader (tests simulate a failed load with it). */
  loadJieba?: JiebaLoader;
}

export interface EngramTokenizer extends Tokenizer {
  /** Problems with user dictionary lines (skipped, not fatal). */
  readonly userDictErrors: readonly string[];
}

/**
 * Builds a tokenizer. 'auto' and 'jieba' use jieba when it loads and fall back to 1-/2-grams
 * otherwise (recorded in `fallbackReason`); memory recall is an enhancement and must not fail
 * because a native module is missing.
 */
export function createTokenizer(options: TokenizerOptions): EngramTokenizer {
  if (options.kind === 'gram') return gramTokenizer(null);
  const settings: JiebaSettings = {
    mode: options.jiebaMode ?? 'cut',
    hmm: options.hmm ?? false,
    singleRunBigrams: options.singleRunBigrams ?? true,
  };
  if (options.loadJieba === undefined) {
    // The bundled jieba: its dictionary is built on the first text, not here (see LazyBundledJieba).
    const bundled = lazyBundledJieba();
    if (!bundled.ok) return gramTokenizer(bundled.reason);
    const { errors } = bundled.jieba.addUserDict(normalizedUserDict(options.userDict));
    return {
      engine: 'jieba',
      fallbackReason: null,
      userDictErrors: errors,
      tokenize: (text) => {
        const normalized = normalize(text);
        return tokenizeNormalized(normalized, jiebaSegmenter(bundled.jieba.segmenterFor(normalized), settings));
      },
      prepare: (texts, hint) => bundled.jieba.prepare(texts, normalize, hint),
    };
  }
  const loaded = obtainJieba(options.loadJieba);
  if (!loaded.ok) return gramTokenizer(loaded.reason);
  const { errors } = loadUserDict(loaded.jieba, normalizedUserDict(options.userDict));
  const segment = jiebaSegmenter(loaded.jieba, settings);
  return {
    engine: 'jieba',
    fallbackReason: null,
    userDictErrors: errors,
    tokenize: (text) => tokenizeNormalized(normalize(text), segment),
  };
}

function gramTokenizer(fallbackReason: string | null): EngramTokenizer {
  return { engine: 'gram', fallbackReason, userDictErrors: [], tokenize: (text) => tokenizeNormalized(normalize(text), gramSegmenter) };
}

/**
 * Segments the CJK runs of one text, in order, into `out`, calling `afterRun(i)` once run i's words
 * are out (the text's Latin words that follow it go out there, so the words keep the text's order).
 */
type CjkSegmenter = (runs: readonly string[], out: string[], afterRun: (run: number) => void) => void;

// NFKC folds full-width latin and digits (ＡＢＣ１２３) into their ASCII forms, and traditional Chinese
// is read as simplified (text/script-fold.ts: 會議 → 会议, for jieba's simplified dictionary and for the
// other script's notes and questions). Case is folded per word (text/latin.ts), after the camelCase
// boundaries of identifiers have been read.
const normalize = asReadForWords;

/**
 * User dictionary lines with their word read as the text is (a word written in 繁體 meets folded text),
 * after the Taiwan words jieba's dictionary lacks (text/taiwan-words.ts), which a user's line may weigh otherwise.
 */
const normalizedUserDict = (lines: readonly string[] | undefined): string[] => [...taiwanUserDictLines(), ...(lines ?? []).map((line) => foldToSimplified(line))];

/** Splits normalized text into CJK runs and latin/digit words; CJK runs go to `segmentCjk`, words to text/latin.ts. */
function tokenizeNormalized(normalized: string, segmentCjk: CjkSegmenter): string[] {
  const out: string[] = [];
  const runs: string[] = [];
  const words: string[] = [];
  /** Per Latin word: how many CJK runs come before it. */
  const runsBefore: number[] = [];
  forEachRun(
    normalized,
    (run) => runs.push(run),
    (word) => {
      words.push(word);
      runsBefore.push(runs.length);
    },
  );
  let next = 0;
  const wordsBefore = (run: number) => {
    while (next < words.length && runsBefore[next]! <= run) latinTerms(words[next++]!, out);
  };
  wordsBefore(0);
  if (runs.length > 0) segmentCjk(runs, out, (run) => wordsBefore(run + 1));
  wordsBefore(runs.length);
  return out;
}

interface JiebaSettings {
  mode: JiebaMode;
  hmm: boolean;
  singleRunBigrams: boolean;
}

/**
 * Joins a text's CJK runs for one call to jieba. A line break is never part of a run and always
 * ends jieba's word (it comes back as a word of its own), so the runs are cut exactly as one call
 * each would cut them, for a third less CPU: a 600-character note has ~75 runs, and each native
 * call costs more than cutting its run (25 % of a 50,000-note build's CPU was these calls).
 */
const RUN_SEPARATOR = '\n';

function jiebaSegmenter(jieba: JiebaSegmenter, settings: JiebaSettings): CjkSegmenter {
  const cut = (text: string) => (settings.mode === 'search' ? jieba.cutForSearch(text, settings.hmm) : jieba.cut(text, settings.hmm));
  const emit = (words: readonly string[], from: number, to: number, out: string[]) => {
    let previousChar: string | null = null;
    for (let i = from; i < to; i++) {
      // A Taiwan word is read as the mainland's (伺服器 → 服务器), so a note and a question from either side meet.
      const word = mainlandWord(words[i]!);
      if (!isStopWord(word)) out.push(word);
      const isChar = isOneCodePoint(word);
      if (settings.singleRunBigrams && isChar && previousChar !== null) pushPair(previousChar, word, out);
      previousChar = isChar ? word : null;
    }
  };
  return (runs, out, afterRun) => {
    const words = cut(runs.length === 1 ? runs[0]! : runs.join(RUN_SEPARATOR));
    let separators = 0;
    for (const word of words) if (word === RUN_SEPARATOR) separators++;
    if (separators !== runs.length - 1) {
      // Never seen; should a jieba version treat the break differently, each run is cut alone.
      runs.forEach((run, i) => {
        const own = cut(run);
        emit(own, 0, own.length, out);
        afterRun(i);
      });
      return;
    }
    let from = 0;
    let run = 0;
    for (let i = 0; i <= words.length; i++) {
      if (i < words.length && words[i] !== RUN_SEPARATOR) continue;
      emit(words, from, i, out);
      afterRun(run++);
      from = i + 1;
    }
  };
}

const isOneCodePoint = (word: string): boolean =>
  word.length === 1 || (word.length === 2 && word.codePointAt(0)! > 0xffff);

/** 1-/2-grams run by run (the fallback when jieba cannot load). */
const gramSegmenter: CjkSegmenter = (runs, out, afterRun) => {
  runs.forEach((run, i) => {
    gramTokens(run, out);
    afterRun(i);
  });
};

/** Every character plus every adjacent pair, without stop words. */
function gramTokens(run: string, out: string[]): void {
  const chars = Array.from(run);
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (!isStopWord(char)) out.push(char);
    const next = chars[i + 1];
    if (next !== undefined) pushPair(char, next, out);
  }
}

/** Pairs of two stop characters (了吗, 我的) straddle function words and carry no topic. */
function pushPair(first: string, second: string, out: string[]): void {
  const pair = first + second;
  if (isStopWord(pair) || (isStopWord(first) && isStopWord(second))) return;
  out.push(pair);
}
