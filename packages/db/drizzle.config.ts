import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'turso',
  schema: './packages/db/src/schema.ts',
  out: './drizzle',
  dbCredentials: { url: 'file::memory:' },
});
