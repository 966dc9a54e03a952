// Lock worker: `hold <lock> <ms>` takes the writer lock, says "held", keeps it for ms (or until
// killed); `count <lock> <file> <n>` does n read-modify-write increments of a counter file under it.
import { readFile, writeFile } from 'node:fs/promises';
import { WriterLock } from '../../../src/diary/lock.ts';

const [mode, lockPath, a, b] = process.argv.slice(2) as [string, string, string, string];
const lock = new WriterLock(lockPath, { staleMs: 60_000, waitMs: 60_000, retryMs: 5 });
if (mode === 'hold') {
  const release = await lock.acquire('hold');
  process.stdout.write('held\n');
  await new Promise((r) => setTimeout(r, Number(a))); // the tests kill it before this ends
  await release();
} else {
  const file = a;
  for (let i = 0; i < Number(b); i++) {
    await lock.run('count', async () => {
      const n = Number(await readFile(file, 'utf8'));
      await new Promise((r) => setTimeout(r, 1)); // widen the window a lost update needs
      await writeFile(file, String(n + 1));
    });
  }
  process.stdout.write(`${JSON.stringify({ takeovers: lock.takeovers })}\n`);
}
