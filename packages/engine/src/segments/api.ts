// What Engine.locate and Engine.detail return (the plugin's engram_locate / engram_detail render these).
import type { LocateHit } from './locate.ts';

export interface MemoryRef {
  docId: string;
  title: string;
  date: string;
  path: string;
  /** Length of the whole memory in characters. */
  chars: number;
  /** How many segments the memory splits into. */
  segmentCount: number;
}

export interface MemoryLocate extends MemoryRef {
  query: string;
  /** Segments that match the query, best first; empty when none does. */
  hits: LocateHit[];
}

export interface MemorySegments extends MemoryRef {
  /** true when the whole memory was returned (no segments asked for, or all of them). */
  whole: boolean;
  segments: { index: number; heading: string; start: number; end: number; chars: number }[];
  /** The whole text, or the chosen segments with "…" lines where segments were skipped. */
  text: string;
}
