// An editor outside Engram saving one diary every few milliseconds, as fast editors, autosave and
// sync tools do. `append` adds a line in place (O_APPEND|O_CREAT, like appendFile); `rename` reads
// the file, writes the whole new text to a temp file and renames it over the diary (an atomic save).
// Every save adds one unique line. Prints "ready", saves until its stdin closes, then prints the lines
// it saved as one JSON line. It ignores Engram's writer lock, as every other program does.
import { appendFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const [file, mode, tag] = process.argv.slice(2) as [string, 'append' | 'rename', string];
const saved: string[] = [];
let n = 0;
let stopping = false;

process.stdin.on('end', () => (stopping = true));
process.stdin.resume();

function saveOnce(): void {
  const line = `外部修改-${tag}-${n++}`;
  if (mode === 'append') {
    appendFileSync(file, `${line}\n`);
  } else {
    let current: string;
    try {
      current = readFileSync(file, 'utf8');
    } catch (e) {
      // The file is briefly absent while Engram swaps its save in: an editor would try again.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    const tmp = join(dirname(file), `.editor-save-${process.pid}-${n}`);
    writeFileSync(tmp, `${current}${line}\n`);
    renameSync(tmp, file);
  }
  saved.push(line);
}

function tick(): void {
  if (stopping) {
    process.stdout.write(`${JSON.stringify({ saved })}\n`);
    return;
  }
  saveOnce();
  // "Every few milliseconds": 0–3 ms between saves.
  setTimeout(tick, Math.random() * 3);
}

process.stdout.write('ready\n');
tick();
