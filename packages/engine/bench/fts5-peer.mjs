// The reference for `npm run bench:index`: SQLite FTS5 through the project's own @libsql/client
// (embedded file) over text cut by the project's own @node-rs/jieba, in a process of its own so
// its CPU seconds and peak RSS are its own. Plain node (no tsx), like the compiled CLI it is
// compared with.
//
//   node packages/engine/bench/fts5-peer.mjs build DIARY_DIR DB_FILE [BATCH]   → {"docs": n}
//   node packages/engine/bench/fts5-peer.mjs query DB_FILE QUESTION            → {"hits": n, "ms": …}
//
// build: every *.txt under DIARY_DIR → a row of an fts5 table (title = the first line without its
// "[hh:mm] " time, body = the rest), each field cut as the engine cuts by default (jieba `cut`,
// no HMM) and space-joined, so FTS5's unicode61 tokenizer sees jieba's words; rows are inserted
// BATCH at a time, one transaction per batch.
// query: what a one-shot CLI recall does on this store — load jieba, open the file, cut the
// question and rank by bm25 (title weighted 3).
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '@libsql/client';

const require = createRequire(import.meta.url);

function loadJieba() {
  const { Jieba } = require('@node-rs/jieba');
  // As the engine loads it (text/jieba.ts): the bundled dictionary file, read once.
  return Jieba.withDict(readFileSync(join(dirname(require.resolve('@node-rs/jieba/package.json')), 'dict.txt')));
}

const cut = (jieba, text) => jieba.cut(text, false).filter((w) => w.trim() !== '').join(' ');

async function build(diaryDir, dbFile, batchSize) {
  const jieba = loadJieba();
  const db = createClient({ url: pathToFileURL(dbFile).href });
  await db.execute('PRAGMA journal_mode = WAL');
  await db.execute('PRAGMA synchronous = NORMAL');
  await db.execute("CREATE VIRTUAL TABLE notes USING fts5(path UNINDEXED, title, body, tokenize = 'unicode61')");
  const files = readdirSync(diaryDir, { recursive: true }).map(String).filter((f) => f.endsWith('.txt')).sort();
  let batch = [];
  for (const path of files) {
    const raw = readFileSync(join(diaryDir, path), 'utf8');
    const nl = raw.indexOf('\n');
    const title = (nl < 0 ? raw : raw.slice(0, nl)).replace(/^\[\d\d:\d\d\]\s*/, '');
    const body = nl < 0 ? '' : raw.slice(nl + 1);
    batch.push({ sql: 'INSERT INTO notes (path, title, body) VALUES (?, ?, ?)', args: [path, cut(jieba, title), cut(jieba, body)] });
    if (batch.length === batchSize) {
      await db.batch(batch, 'write');
      batch = [];
    }
  }
  if (batch.length > 0) await db.batch(batch, 'write');
  db.close();
  return { docs: files.length };
}

async function query(dbFile, question) {
  const t0 = performance.now();
  const jieba = loadJieba();
  const db = createClient({ url: pathToFileURL(dbFile).href });
  // Each word a quoted phrase (FTS5 syntax characters in a word stay literal), any word may match.
  const words = [...new Set(jieba.cut(question, false).map((w) => w.replace(/[^\p{L}\p{N}]/gu, '')).filter(Boolean))];
  const match = words.map((w) => `"${w}"`).join(' OR ');
  const r = await db.execute({ sql: 'SELECT path FROM notes WHERE notes MATCH ? ORDER BY bm25(notes, 0, 3, 1) LIMIT 10', args: [match] });
  db.close();
  return { hits: r.rows.length, ms: performance.now() - t0 };
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'build') console.log(JSON.stringify(await build(args[0], args[1], Number(args[2] ?? 500))));
else if (mode === 'query') console.log(JSON.stringify(await query(args[0], args.slice(1).join(' '))));
else throw new Error('usage: fts5-peer.mjs build DIARY_DIR DB_FILE [BATCH] | query DB_FILE QUESTION');
