// The settings domain: opening with the saved overlay (repairing what no longer validates), the
// masked view, saving a patch, picking up another process's save, the embedding connection test.
export { SettingsService } from './service.ts';
export { loadOverlay, ensureDiaryDir } from './load.ts';
