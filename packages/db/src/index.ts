export * from './client.ts';
export * as schema from './schema.ts';
export { documents, chunks, indexManifest, settingsOverlay, meta } from './schema.ts';
export * from './queries.ts';
