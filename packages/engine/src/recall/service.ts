// The recall domain's entry (#18, the console's recall router): caps the query, refreshes the live
// index, hands the pipeline its view of the engine (channels, documents, the time channel's days),
// scopes the recall to a workspace, and renders a result as the injection block.
import { chunkTextsWithFallback } from '../index/offline.ts';
import type { IndexService } from '../index/service.ts';
import type { MemoryReaderService } from '../memories/reader.ts';
import { goneDiaryDirText } from '../diary/errors.ts';
import { EngramError } from '../errors.ts';
import type { EngineState } from '../runtime/state.ts';
import type { TimeChannelDeps } from '../timeq/channel.ts';
import { recall as runRecall, type RecallOptions } from './pipeline.ts';
import { renderRecallBlock } from './render.ts';
import type { RecallResult } from './types.ts';

/** Longest query recall looks at (characters); longer ones are cut, not refused. */
export const MAX_QUERY_CHARS = 20_000;

export class RecallService {
  constructor(
    private readonly s: EngineState,
    private readonly reader: MemoryReaderService,
    private readonly indexer: IndexService,
  ) {}

  async recall(query: string, options: RecallOptions = {}): Promise<RecallResult> {
    if (typeof query !== 'string') throw new EngramError('bad-query', 'query must be a string');
    // A pasted log can make a person's message megabytes long; tokenising it all would hold the
    // conversation for seconds. Its beginning is what recall can use anyway.
    if (query.length > MAX_QUERY_CHARS) query = query.slice(0, MAX_QUERY_CHARS);
    const s = this.s;
    // The files are the truth: with the diary folder gone, the index of its files is not shown (a
    // person who deleted it to make the agent forget, a drive unmounted whose notes cannot be seen).
    const gone = this.indexer.diaryFolderGone();
    if (!gone) await s.live.refreshIfStale(s.db);
    return runRecall(
      {
        silenced: gone ? { rule: 'diary-missing', detail: goneDiaryDirText(gone.dir) } : null,
        config: s.config,
        tokenizer: s.tokenizer,
        lexical: s.live.lexical,
        doc: (id) => s.live.meta(id),
        docOfChunk: (id) => s.live.chunkDoc.get(id),
        semantic: s.semantic,
        chunkTexts: (ids) => chunkTextsWithFallback(s.db, ids, { doc: (id) => s.live.doc(id), config: s.config }),
        judge: s.judge,
        now: s.options.now,
        time: this.timeChannelDeps(),
      },
      query,
      { ...options, workspace: s.scopeOf(options.workspace) },
    );
  }

  private timeChannelDeps(): TimeChannelDeps {
    return { timeZone: this.s.timeZone, memoriesOn: (days) => this.reader.dayMemories(days) };
  }

  renderInjection(result: RecallResult, attrs: Record<string, string> = {}): string {
    return renderRecallBlock(
      result.hits.map((h) => ({ date: h.date, title: h.title, text: h.text })),
      this.s.config.inject,
      attrs,
    );
  }

  /** Memories injected into every turn: the configured ones, then those the last index run found. */
  residentMemories(): { text: string; critical: boolean }[] {
    return [...this.s.config.runtime.memories, ...this.indexer.resident];
  }
}
