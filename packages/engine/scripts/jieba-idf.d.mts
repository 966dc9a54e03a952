// Types of scripts/jieba-idf.mjs (plain JavaScript so the build script runs it without tsx).
export declare const IDF_TABLE_MAGIC: string;
export declare const IDF_TABLE_FORMAT: number;
export declare function parseIdf(idf: Uint8Array, keepBelow: number): Map<string, number>;
export declare function buildIdfTable(idf: Uint8Array, options: { keepBelow: number; idfMtimeMs?: number }): Buffer;
