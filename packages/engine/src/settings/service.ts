// The settings domain (#18, the console's settings router): the masked view, saving a patch over the
// deploy base (diary-root and embedding-fingerprint changes need confirmation), picking up what
// another process saved, applying a new config to the running engine (tokenizer, semantic channel,
// judge, index, BM25 parameters), and the embedding connection test.
import { bumpGeneration, corpusCounts, readSettingsOverlay, writeSettingsOverlay } from '@engram/db';
import type { SaveSettingsResult, SettingsView } from '../api.ts';
import { checkDiaryRootChange } from '../config/folders.ts';
import { endpointOf, getPath, isPlainObject, KEYED_ENDPOINTS, maskForDisplay, overlayAfterSave, stripMaskedSecrets } from '../config/merge.ts';
import { applyOverlay } from '../config/resolve.ts';
import { hasUrlCredentials, urlCredentialsRefusal } from '../net/url-credentials.ts';
import { secretPaths, type EngramConfig } from '../config/schema.ts';
import { EngramError, errorMessage } from '../errors.ts';
import type { IndexService } from '../index/service.ts';
import { lexicalOptions, type EngineState } from '../runtime/state.ts';
import { compareFingerprints, fingerprintOf, windowingKey } from '../semantic/fingerprint.ts';
import { createTokenizer } from '../text/tokenize.ts';

export class SettingsService {
  constructor(
    private readonly s: EngineState,
    private readonly indexer: IndexService,
  ) {}

  getSettings(): SettingsView {
    const s = this.s;
    return {
      effective: maskForDisplay(s.config, secretPaths),
      base: maskForDisplay(s.resolved.base, secretPaths),
      overlay: maskForDisplay(s.overlay, secretPaths),
      lockedByEnv: s.resolved.lockedByEnv,
    };
  }

  /**
   * Saves a partial settings patch. Each leaf equal to the deploy base is removed from the overlay,
   * any other leaf is set in it, and everything else in the previous overlay is kept.
   */
  async saveSettings(patch: unknown, opts: { confirm?: 'rebuild' | 'save-only'; confirmDiaryDir?: string } = {}): Promise<SaveSettingsResult> {
    const s = this.s;
    if (!isPlainObject(patch)) throw new EngramError('bad-input', 'settings patch must be an object');
    if (s.database.readOnly) throw new EngramError('read-only-data', s.database.readOnly.reason);
    for (const section of KEYED_ENDPOINTS) {
      const baseUrl = getPath(patch, [section, 'baseUrl']);
      if (typeof baseUrl === 'string' && hasUrlCredentials(baseUrl)) throw new EngramError('bad-input', urlCredentialsRefusal(section));
    }
    const next = overlayAfterSave(s.overlay, stripMaskedSecrets(patch, secretPaths), s.resolved.base, s.resolved.lockedByEnv);
    const candidate = applyOverlay(s.resolved, next, s.env);
    // Moving the diary root: never to a system folder, and only when the caller named the new path.
    const root = checkDiaryRootChange(s.config.diaryDir, candidate.diaryDir, opts.confirmDiaryDir, s.env.HOME ?? '');
    if (!root.ok) {
      if (!root.confirm) throw new EngramError('bad-input', root.reason);
      return { ok: false, requiresConfirmation: true, fatal: false, reasons: [root.reason], confirmDiaryDir: candidate.diaryDir };
    }
    const change = compareFingerprints(fingerprintOf(s.config.embedding, s.config.chunk), fingerprintOf(candidate.embedding, candidate.chunk));
    if (change.fatal && !opts.confirm && (await corpusCounts(s.db)).chunks > 0) {
      return {
        ok: false,
        requiresConfirmation: true,
        fatal: true,
        reasons: [...change.reasons, 'existing vectors cannot be compared with the new ones: rebuild the index to use the semantic channel again'],
      };
    }
    await writeSettingsOverlay(s.db, next);
    s.overlay = next;
    await this.applyConfig(candidate, { rebuild: opts.confirm === 'rebuild' });
    await bumpGeneration(s.db);
    return { ok: true, restartRequired: [] };
  }

  /**
   * Picks up settings saved by another process (the console) — one small read; the config changes
   * only when the stored overlay differs from the one this engine applied.
   */
  async refreshConfig(): Promise<boolean> {
    const s = this.s;
    const stored = await readSettingsOverlay(s.db);
    if (JSON.stringify(stored) === JSON.stringify(s.overlay)) return false;
    s.overlay = stored;
    await this.applyConfig(applyOverlay(s.resolved, stored, s.env), { rebuild: false });
    return true;
  }

  private async applyConfig(next: EngramConfig, opts: { rebuild: boolean }): Promise<void> {
    const s = this.s;
    const prev = s.config;
    s.config = next;
    const tokenizerChanged = prev.recall.tokenizer !== next.recall.tokenizer || JSON.stringify(prev.recall.userDict) !== JSON.stringify(next.recall.userDict);
    if (tokenizerChanged) s.tokenizer = createTokenizer({ kind: next.recall.tokenizer, userDict: next.recall.userDict });
    // The model windows and what is embedded (chunk.windowTokens / windowOverlap / embed) are the channel's too.
    const embedded = (c: EngramConfig) => [c.embedding, windowingKey(c.chunk), c.chunk.embed];
    if (JSON.stringify(embedded(prev)) !== JSON.stringify(embedded(next))) await s.openSemantic();
    s.rebuildJudge(next);
    const lexicalChanged = JSON.stringify(lexicalOptions(prev)) !== JSON.stringify(lexicalOptions(next));
    if (opts.rebuild) await this.indexer.run({ full: true });
    else if (tokenizerChanged || prev.diaryDir !== next.diaryDir || prev.diary.runtimeFile !== next.diary.runtimeFile || JSON.stringify(prev.chunk) !== JSON.stringify(next.chunk)) {
      // A new resident memories file is read by the next pass, so it applies without a restart.
      await this.indexer.run({ full: false });
    }
    if (lexicalChanged) {
      (s.live as unknown as { options: unknown }).options = lexicalOptions(next);
      await s.live.load(s.db);
    }
  }

  /**
   * Embeds a probe text with draft embedding settings (masked or empty key = the saved key) and
   * reports what came back. Never throws: a failure is { ok: false, message } without the key.
   */
  async testEmbedding(patch: unknown = {}): Promise<{ ok: boolean; message?: string; dimensions?: number; ms?: number }> {
    const s = this.s;
    const draft = isPlainObject(patch) ? stripMaskedSecrets({ embedding: patch }, secretPaths).embedding : {};
    const typed = isPlainObject(draft) && typeof draft.apiKey === 'string' ? draft.apiKey : '';
    const cfg = { ...s.config.embedding, ...(isPlainObject(draft) ? draft : {}), apiKey: typed } as EngramConfig['embedding'];
    // The saved key only goes to the provider and base URL it was saved for; elsewhere it must be typed again.
    if (!cfg.apiKey && endpointOf(cfg) === endpointOf(s.config.embedding)) cfg.apiKey = s.config.embedding.apiKey;
    if (cfg.provider === 'none') return { ok: false, message: 'embedding provider is none' };
    const t0 = performance.now();
    try {
      const { createEmbedder } = await import('../semantic/embedder-factory.ts');
      const embedder = await createEmbedder(cfg, undefined, { dataDir: s.config.dataDir });
      try {
        const [v] = await embedder.embed(['连接测试 connection test'], { timeoutMs: Math.min(cfg.timeoutMs, 15_000) });
        return { ok: true, dimensions: v?.length ?? 0, ms: Math.round(performance.now() - t0) };
      } finally {
        await embedder.dispose?.();
      }
    } catch (e) {
      const message = errorMessage(e);
      return { ok: false, message: cfg.apiKey ? message.replaceAll(cfg.apiKey, '••••') : message, ms: Math.round(performance.now() - t0) };
    }
  }
}
