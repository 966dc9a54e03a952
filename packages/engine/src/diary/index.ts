// The diary layer: files are the source of truth. Parsing and formatting are pure; fsio.ts, store.ts
// and migrate.ts are the only modules that touch the disk.
export * from './errors.ts';
export * from './dates.ts';
export { parseFrontMatter, fmString, type FrontMatter, type FrontMatterValue } from './frontmatter.ts';
export * from './parse.ts';
export * from './ids.ts';
export * from './format.ts';
export * from './fsio.ts';
export * from './edit.ts';
export * from './store.ts';
export * from './migrate.ts';
export * from './semantic-block.ts';
export { BUILTIN_DIARY_GUIDELINE } from './template.ts';
