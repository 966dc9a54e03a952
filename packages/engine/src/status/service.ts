// The status domain (#18, the console's system/status page and `engram status`): counts from the
// tables (never the manifest), tokenizer and chunk parameters against what the index was built with,
// the semantic channel's state, and every warning worth showing (data repairs, index runs, files).
import { corpusCounts, documentWarnings, folderCounts, getManifest } from '@engram/db';
import type { EngineStatus } from '../api.ts';
import { goneDiaryDirText } from '../diary/errors.ts';
import { shownDatabaseUrl } from '../config/merge.ts';
import { summariseWarnings } from './warning-kinds.ts';
import type { IndexService } from '../index/service.ts';
import type { EngineState } from '../runtime/state.ts';
import { tokenizerIndexKey, tokenizerWarnings } from '../text/tokenizer-check.ts';

export class StatusService {
  constructor(
    private readonly s: EngineState,
    private readonly indexer: IndexService,
  ) {}

  async status(): Promise<EngineStatus> {
    const s = this.s;
    const counts = await corpusCounts(s.db);
    const manifest = await getManifest(s.db);
    const folders = await folderCounts(s.db);
    const sem = s.semantic?.status();
    const builtChunk = manifest ? { size: manifest.chunkSize, overlap: manifest.chunkOverlap } : null;
    // A loaded index has every row at hand; otherwise only the warnings column is read (a one-shot
    // `engram status` at 5,000 memories spent most of its time listing whole rows for this).
    const fileWarnings = s.live.loaded ? [...s.live.docs.values()].flatMap((d) => d.warnings) : await documentWarnings(s.db, { limit: 500 });
    const gone = this.indexer.diaryFolderGone();
    const allWarnings = [...s.dataWarnings, ...tokenizerWarnings(manifest?.tokenizer ?? null, s.tokenizer), ...this.indexer.lastIndexWarnings, ...fileWarnings];
    return {
      documents: counts.documents,
      archived: counts.archived,
      chunks: counts.chunks,
      vectors: sem?.vectors ?? 0,
      tokenizer: {
        configured: s.config.recall.tokenizer,
        active: s.tokenizer.engine,
        fallbackReason: s.tokenizer.fallbackReason,
        builtWith: manifest?.tokenizer ?? null,
        mismatch: manifest !== undefined && manifest.tokenizer !== tokenizerIndexKey(s.tokenizer),
      },
      chunkParams: {
        ...s.config.chunk,
        builtWith: builtChunk,
        adviseRebuild: builtChunk !== null && (builtChunk.size !== s.config.chunk.size || builtChunk.overlap !== s.config.chunk.overlap),
      },
      semantic: sem
        ? { state: sem.state, reason: sem.reason, action: sem.action, provider: sem.provider, dimensions: sem.dimensions }
        : { state: 'off', reason: 'embedding provider is none: lexical recall only', action: null, provider: s.config.embedding.provider, dimensions: 0 },
      judge: { state: s.judgeStatus.state, reason: s.judgeStatus.reason, lastLatencyMs: s.judgeStatus.lastLatencyMs, lastAt: s.judgeStatus.lastAt, proxy: s.judgeStatus.proxy },
      builtAt: manifest?.builtAt ?? null,
      folders,
      warnings: allWarnings.slice(0, 500),
      warningSummary: summariseWarnings(allWarnings),
      diaryDir: s.config.diaryDir,
      diaryMissing: gone ? { since: gone.since, message: goneDiaryDirText(gone.dir) } : null,
      dataDir: s.config.dataDir,
      databaseUrl: shownDatabaseUrl(s.config.databaseUrl),
    };
  }
}
