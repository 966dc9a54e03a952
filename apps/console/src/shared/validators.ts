// Input validators shared by the routers and the UI forms.
import { z } from 'zod';

export const memoryId = z.string().trim().min(1, 'id is required').max(512);

export const listInput = z.object({ includeArchived: z.boolean().default(false) }).prefault({});

export const createMemoryInput = z.object({
  title: z.string().trim().max(200).optional(),
  content: z.string().trim().min(1, 'content is required').max(200_000),
  summary: z.string().trim().max(2_000).optional(),
  tags: z.array(z.string().trim().min(1).max(80)).max(40).optional(),
  folder: z.string().trim().max(200).optional(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD').optional(),
  time: z.string().regex(/^\d{2}:\d{2}$/, 'time must be HH:MM').optional(),
});
export type CreateMemoryInput = z.infer<typeof createMemoryInput>;

export const saveTextInput = z.object({
  id: memoryId,
  raw: z.string().max(500_000),
  expectedHash: z.string().min(1).max(128),
});

export const editInput = z.object({
  id: memoryId,
  target: z.string().min(1).max(100_000),
  replacement: z.string().max(100_000),
});

export const recallInput = z.object({
  query: z.string().trim().min(1, 'query is required').max(4_000),
  k: z.number().int().min(1).max(50).optional(),
  only: z.enum(['lexical', 'semantic']).optional(),
});

export const rebuildInput = z.object({ full: z.boolean().default(true) }).prefault({});

export const settingsPatch = z.record(z.string(), z.unknown());

export const saveSettingsInput = z.object({
  patch: settingsPatch,
  confirm: z.enum(['rebuild', 'save-only']).optional(),
});

export const previewInput = z.object({ text: z.string().min(1, 'paste a reply first').max(200_000) });
