// What the time channel reads of the corpus (kept apart from channel.ts so recall's dependency
// types can name it without importing the channel's code).
import type { DocMeta } from '../recall/types.ts';

/** A memory whose date says when it happened (a diary entry), as the time channel needs it. */
export interface DayMemory {
  meta: DocMeta;
  /** HH:MM of the entry, null when the file has none. */
  time: string | null;
  /** The chunk shown when no chunk of the memory matched the rest of the query. */
  firstChunkId: string | null;
}

export interface TimeChannelDeps {
  /** The data directory's zone (stored at first run): "today" is the local day there. */
  timeZone: string;
  /** Live memories dated on one of `days` whose date is when it happened; archived ones excluded. */
  memoriesOn(days: string[]): DayMemory[];
}
