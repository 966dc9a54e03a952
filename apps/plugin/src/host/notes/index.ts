// notes/: what the model writes without a tool call becomes diary — note blocks in its answers are
// applied once each (scoped like the tools; failures told on its next step) — and the background
// worker that drains the engine's summary queue, never on a turn's path.
export { listenForNoteBlocks, NoteSink } from './note-sink.ts';
export { startSummaryWorker } from './summary-worker.ts';
export { createSummaryTryRoutes, SUMMARY_TRY_PATH } from './summary-try.ts';
