// Input validators shared by the routers and the UI forms.
import { z } from 'zod';

export const memoryId = z.string().trim().min(1, 'id is required').max(512);

/** A workspace id as the engine writes it in a Meta line: no spaces, ';', '=' or ','. `global` is one. */
export const workspaceId = z
  .string()
  .trim()
  .min(1, 'workspace id is required')
  .max(200)
  .regex(/^[^\s;=,]+$/, 'a workspace id has no spaces, ";", "=" or ","');

export const listInput = z
  .object({
    includeArchived: z.boolean().default(false),
    /** Only what this workspace sees; omitted = every memory. */
    workspace: workspaceId.optional(),
    /** With `workspace`: also the global memories (what a session there sees). Default true. */
    includeGlobal: z.boolean().default(true),
  })
  .prefault({});

export const indexInput = z
  .object({
    workspace: workspaceId.optional(),
    tag: z.string().trim().max(80).optional(),
    page: z.number().int().min(1).max(100_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(20),
  })
  .prefault({});

export const pinInput = z.object({ id: memoryId, pinned: z.boolean() });

export const lockInput = z.object({ id: memoryId, locked: z.boolean() });

export const moveInput = z.object({ id: memoryId, workspace: workspaceId });

export const claimIdInput = z.object({ claimId: z.number().int().min(1) });

export const renameInput = z.object({ id: workspaceId, name: z.string().trim().min(1, 'name is required').max(200) });

export const mergeInput = z.object({ from: workspaceId, into: workspaceId }).refine((v) => v.from !== v.into, { message: 'a workspace cannot be merged into itself', path: ['into'] });

export const registerInput = z.object({ path: z.string().trim().min(1, 'a folder path is required').max(4096) });

/** Session ids (or unique prefixes) as the DSH session logs name them. */
export const sessionIds = z.array(z.string().trim().min(1).max(200)).min(1, 'choose at least one session').max(200);

export const wallListInput = z
  .object({ limit: z.number().int().min(1).max(200).default(50), offset: z.number().int().min(0).max(1_000_000).default(0) })
  .prefault({});

export const wallPostInput = z.object({
  text: z.string().trim().min(1, 'the message is empty').max(2000, 'a message is at most 2000 characters'),
  /** '' / omitted = everyone; a session id prefix (≥ 6), `s:<prefix>`, a workspace id or `ws:<id>`. */
  to: z.string().trim().max(220).optional(),
  /** The workspace the console speaks from (default global). */
  workspace: workspaceId.optional(),
});

export const createMemoryInput = z.object({
  title: z.string().trim().max(200).optional(),
  content: z.string().trim().min(1, 'content is required').max(200_000),
  summary: z.string().trim().max(2_000).optional(),
  tags: z.array(z.string().trim().min(1).max(80)).max(40).optional(),
  folder: z.string().trim().max(200).optional(),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be YYYY-MM-DD').optional(),
  time: z.string().regex(/^\d{2}:\d{2}$/, 'time must be HH:MM').optional(),
  /** The workspace it belongs to (default global). */
  workspace: workspaceId.optional(),
});
export type CreateMemoryInput = z.infer<typeof createMemoryInput>;

export const saveTextInput = z.object({
  id: memoryId,
  raw: z.string().max(500_000),
  expectedHash: z.string().min(1).max(128),
});

/** A save from the structured editor: the fields as typed, and the hash of the text they were read from. */
export const saveFieldsInput = z.object({
  id: memoryId,
  expectedHash: z.string().min(1).max(128),
  title: z.string().max(2_000),
  tags: z.array(z.string().max(500)).max(200),
  body: z.string().max(500_000),
  /** Absent: the Meta line's kind / goal stay as they are. */
  kind: z.string().max(200).optional(),
  goal: z.string().max(2_000).optional(),
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
  /** Recall as a session in this workspace would (its memories + global); omitted = every memory. */
  workspace: workspaceId.optional(),
});

export const rebuildInput = z.object({ full: z.boolean().default(true) }).prefault({});

export const settingsPatch = z.record(z.string(), z.unknown());

export const saveSettingsInput = z.object({
  patch: settingsPatch,
  confirm: z.enum(['rebuild', 'save-only']).optional(),
  /** Moving the diary root: the new path, exactly as the engine's confirmation named it. */
  confirmDiaryDir: z.string().max(4096).optional(),
});

export const previewInput = z.object({ text: z.string().min(1, 'paste a reply first').max(200_000) });
