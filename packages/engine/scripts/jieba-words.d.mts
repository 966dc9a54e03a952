// Types of scripts/jieba-words.mjs (plain JavaScript so the build script runs it without tsx).
export declare const WORD_INDEX_MAGIC: string;
export declare const WORD_INDEX_FORMAT: number;
export declare function buildWordIndex(dict: Buffer, options?: { dictMtimeMs?: number }): Buffer;
