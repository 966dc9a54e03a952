// The structured editor's two calls: a memory as fields, and a save of fields. A save is spliced into
// the file's current text (diary-fields.ts for a .txt, md-fields.ts for a .md) and written through the engine's whole-file save, which
// checks the hash the editor started from (CONFLICT when the file changed meanwhile) and keeps the
// file's encoding. Unchanged fields write nothing.
import type { Engine, MemoryDetail } from '@engram/engine';
import { TRPCError } from '@trpc/server';
import type { DiaryFields, FieldProblem } from './diary-fields.ts';
import { memoryLayoutOf, memoryFieldsOf, withMemoryFields, type FieldsLayout } from './md-fields.ts';

export interface MemoryFields {
  /** False for files the fields editor does not write (read-only legacy): the text editor stays. */
  editable: boolean;
  /** How the file holds the fields: the editor's own checks and hints follow it. */
  layout: FieldsLayout;
  fields: DiaryFields;
  contentHash: string;
}

async function detailOf(engine: Engine, id: string): Promise<MemoryDetail> {
  const d = await engine.read(id);
  if (!d) throw new TRPCError({ code: 'NOT_FOUND', message: `memory ${id} does not exist` });
  return d;
}

export async function memoryFields(engine: Engine, id: string): Promise<MemoryFields> {
  const d = await detailOf(engine, id);
  return { editable: !d.readOnly, layout: memoryLayoutOf(d.path, d.raw), fields: memoryFieldsOf(d.path, d.raw), contentHash: d.contentHash };
}

export type SaveFieldsResult = { ok: true; changed: boolean; memory: MemoryDetail } | { ok: false; problem: FieldProblem };

export async function saveMemoryFields(engine: Engine, input: DiaryFields & { id: string; expectedHash: string }): Promise<SaveFieldsResult> {
  const d = await detailOf(engine, input.id);
  if (d.contentHash !== input.expectedHash) throw new TRPCError({ code: 'CONFLICT', message: `"${d.title}" changed on disk since it was opened; reload before saving` });
  if (d.readOnly) throw new TRPCError({ code: 'BAD_REQUEST', message: `"${d.title}" is not edited as fields` });
  const next = withMemoryFields(d.path, d.raw, { title: input.title, tags: input.tags, body: input.body, kind: input.kind, goal: input.goal });
  if ('problem' in next) return { ok: false, problem: next.problem };
  if (next.text === d.raw) return { ok: true, changed: false, memory: d };
  return { ok: true, changed: true, memory: await engine.saveText(d.docId, next.text, input.expectedHash) };
}
