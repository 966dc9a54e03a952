import { z } from 'zod';
import { previewInput, saveSettingsInput, settingsPatch } from '../../shared/validators.ts';
import { refreshAllowedOrigins } from '../engine.ts';
import { engineConstant, engineFunction } from '../optional.ts';
import { createTRPCRouter, procedure } from '../trpc.ts';

export interface NotePreview {
  blocks: Record<string, unknown>[];
  errors: { index: number; message: string }[];
}

export interface EmbeddingTestResult {
  ok: boolean;
  message?: string;
  dimensions?: number;
  ms?: number;
}

export const settingsRouter = createTRPCRouter({
  /** Effective config, deploy base and overlay, secrets masked; which paths env locks. */
  get: procedure.query(({ ctx }) => ctx.runtime.engine.getSettings()),

  /**
   * Saves a patch over the deploy base (the engine computes the delta and merges it into the overlay).
   * A change of embedding fingerprint answers `requiresConfirmation` unless `confirm` says what to do;
   * moving the diary root answers it (with `confirmDiaryDir`) unless `confirmDiaryDir` names the new path.
   */
  save: procedure.input(saveSettingsInput).mutation(async ({ ctx, input }) => {
    const result = await ctx.runtime.engine.saveSettings(input.patch, {
      ...(input.confirm ? { confirm: input.confirm } : {}),
      ...(input.confirmDiaryDir !== undefined ? { confirmDiaryDir: input.confirmDiaryDir } : {}),
    });
    if (result.ok) await refreshAllowedOrigins(ctx.runtime);
    return result;
  }),

  /** What a reply with semantic note blocks would write; parses only, writes nothing. */
  preview: procedure
    .input(previewInput)
    .mutation(({ ctx, input }) => engineFunction<[string], NotePreview>(ctx.runtime.engine, 'previewNoteBlocks', 'parseNoteBlocks')(input.text)),

  /** Embeds a probe text with the given (draft) embedding settings; masked keys mean "the saved key". */
  testEmbedding: procedure
    .input(z.object({ embedding: settingsPatch.optional() }).prefault({}))
    .mutation(({ ctx, input }) => engineFunction<[unknown], EmbeddingTestResult>(ctx.runtime.engine, 'testEmbedding')(input.embedding)),

  /** The built-in diary-writing guideline (what an empty `diary.templateText` means). */
  builtinTemplate: procedure.query(() => ({ text: engineConstant('BUILTIN_DIARY_GUIDELINE') })),
});
