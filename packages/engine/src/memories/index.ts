// The memories domain: reading (list, index, read, locate/detail) and writing (write, edit, save,
// forget, Meta line, summaries, note blocks), plus the small interfaces other domains take.
export { MemoryReaderService } from './reader.ts';
export { MemoryWriterService } from './writer.ts';
export type * from './ports.ts';
