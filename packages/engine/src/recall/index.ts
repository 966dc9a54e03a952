// The recall domain: the service the facade calls, the staged pipeline it runs, the result types.
export { RecallService, MAX_QUERY_CHARS } from './service.ts';
export { recall, type RecallDeps, type RecallOptions, type Judge } from './pipeline.ts';
export type * from './types.ts';
