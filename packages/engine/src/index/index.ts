// The index domain: runs (full / incremental), re-indexing after writes, live sync, integrity sample.
export { IndexService, type IndexRunOptions, type LiveSyncState } from './service.ts';
