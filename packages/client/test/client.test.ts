// The packed @engram/client as a script outside this repo gets it: `npm pack`, unpacked into a
// consumer folder in the temp dir (its dependencies linked from this repo's node_modules, so no
// registry is needed), typechecked there with the consumer's own tsconfig, and the TypeScript example
// from docs/examples run against the real production console (`next start`).
// Builds the console when needed: run under `flock /tmp/e2e.lock`.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { seedDiary } from '../../../e2e/fixtures.ts';
import { ensureBuild, freePort, repoRoot, startConsole, type RunningConsole } from '../../../e2e/server.ts';

const execFileP = promisify(execFile);
const pkgDir = join(repoRoot, 'packages/client');
const example = join(repoRoot, 'docs/examples/client-list-and-recall.ts');
// Words of the memory the example writes; enough of them that the vague-query gate lets it through.
const QUERY = '演示 类型化客户端 示例记忆';
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');

/** A folder outside the workspace with the packed client installed as npm would lay it out. */
function makeConsumer(root: string): string {
  const dir = join(root, 'consumer');
  mkdirSync(join(dir, 'node_modules/@engram/client'), { recursive: true });
  mkdirSync(join(dir, 'node_modules/@trpc'), { recursive: true });
  mkdirSync(join(dir, 'node_modules/@types'), { recursive: true });
  // `npm pack` runs prepack (scripts/build.mjs): the tarball holds only what a consumer gets.
  const pack = spawnSync('npm', ['pack', '--pack-destination', root], { cwd: pkgDir, encoding: 'utf8', timeout: 180_000 });
  assert.equal(pack.status, 0, `npm pack failed:\n${pack.stdout}\n${pack.stderr}`);
  const tarball = readdirSync(root).find((f) => f.endsWith('.tgz'));
  assert.ok(tarball, 'no tarball');
  const untar = spawnSync('tar', ['-xzf', join(root, tarball), '-C', join(dir, 'node_modules/@engram/client'), '--strip-components=1']);
  assert.equal(untar.status, 0, String(untar.stderr));
  for (const dep of ['@trpc/client', '@trpc/server', '@types/node', 'undici-types', 'tsx']) {
    symlinkSync(join(repoRoot, 'node_modules', dep), join(dir, 'node_modules', dep));
  }
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, lib: ['ES2023', 'dom'], types: ['node'] },
      include: ['*.ts'],
    }),
  );
  copyFileSync(example, join(dir, 'example.ts'));
  return dir;
}

const typecheck = (dir: string) => spawnSync(process.execPath, [tsc, '-p', dir], { cwd: dir, encoding: 'utf8', timeout: 120_000 });

describe('@engram/client, packed and used from outside the repo', { timeout: 600_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'engram-client-'));
  const env = { ENGRAM_DIARY_DIR: join(root, 'diary'), ENGRAM_DATA_DIR: join(root, 'data'), HOME: root };
  let consumer = '';
  let server: RunningConsole | null = null;

  before(async () => {
    consumer = makeConsumer(root);
    // Unrelated memories, so the words of the one the example writes are rare enough to be recalled.
    seedDiary(env.ENGRAM_DIARY_DIR);
    ensureBuild((s) => console.log(s));
    server = await startConsole(env, await freePort());
  });
  after(async () => {
    await server?.stop();
  });

  const runExample = (args: string[], dataDir: string) =>
    execFileP(process.execPath, ['--import', 'tsx', join(consumer, 'example.ts'), ...args], {
      cwd: consumer,
      env: { ...process.env, ENGRAM_CONSOLE_URL: server!.url, ENGRAM_DATA_DIR: dataDir },
      timeout: 60_000,
    });

  test('the docs example typechecks in the consumer with the packed types', () => {
    const res = typecheck(consumer);
    assert.equal(res.status, 0, `tsc failed in the consumer:\n${res.stdout}${res.stderr}`);
  });

  test('the packed types are the router’s, not any: wrong inputs, fields and procedures are compile errors', () => {
    const bad = join(consumer, 'bad.ts');
    writeFileSync(
      bad,
      [
        "import { createEngramClient } from '@engram/client';",
        'const engram = createEngramClient();',
        "await engram.memories.list.query({ includeArchived: 'yes' });",
        'const list = await engram.memories.list.query({});',
        'console.log(list[0]?.titel);',
        "const { result } = await engram.recall.run.query({ query: 'x' });",
        'const score: string = result.hits[0]!.score;',
        'await engram.memories.noSuchProcedure.query();',
        "await engram.memories.create.mutate({ title: 'no content' });",
        'export { score };',
      ].join('\n'),
    );
    const res = typecheck(consumer);
    const lines = (res.stdout + res.stderr).split('\n').filter((l) => l.startsWith('bad.ts('));
    const at = (line: number) => lines.some((l) => l.startsWith(`bad.ts(${line},`));
    assert.equal(res.status, 2);
    for (const line of [3, 5, 7, 8, 9]) assert.ok(at(line), `no type error on bad.ts line ${line}:\n${lines.join('\n')}`);
    assert.equal(lines.length, 5, lines.join('\n'));
  });

  test('the example lists, writes with the token from the data dir, and recalls what it wrote', async () => {
    const first = await runExample([QUERY], env.ENGRAM_DATA_DIR);
    const before = Number(/^(\d+) memories$/m.exec(first.stdout)?.[1]);
    assert.ok(Number.isInteger(before), first.stdout);

    const { stdout } = await runExample([QUERY, '--write'], env.ENGRAM_DATA_DIR);
    assert.match(stdout, /^written: \S+客户端写入的示例记忆/m);
    assert.equal(Number(/^(\d+) memories$/m.exec(stdout)?.[1]), before + 1, stdout);
    assert.match(stdout, new RegExp(`recall "${QUERY}": [1-9]\\d* hits`));
    assert.match(stdout, /客户端写入的示例记忆/);
  });

  test('without a token file the write is refused with the console’s typed FORBIDDEN, and reads still work', async () => {
    const empty = join(root, 'no-token');
    mkdirSync(empty);
    await assert.rejects(runExample(['客户端', '--write'], empty), (e: { code?: number; stderr?: string }) => {
      assert.equal(e.code, 1);
      assert.match(e.stderr ?? '', /engram: FORBIDDEN: /);
      return true;
    });
    const { stdout } = await runExample(['客户端'], empty);
    assert.match(stdout, /^\d+ memories$/m);
  });
});
