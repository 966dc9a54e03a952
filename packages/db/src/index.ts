export * from './client.ts';
export * as schema from './schema.ts';
export { documents, chunks, indexManifest, settingsOverlay, meta } from './schema.ts';
export * from './queries.ts';
export * from './queries-sessions.ts';
export * from './queries-crosssession.ts';
export * from './queries-workspaces.ts';
export * from './queries-summaries.ts';
export * from './queries-compaction.ts';
