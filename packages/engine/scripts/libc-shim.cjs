// Bundled in place of @neon-rs/load and detect-libc for libsql's loader only (scripts/build-cli.mjs).
// libsql picks its native build as linux-<arch>-gnu when either of them says glibc: @neon-rs/load
// asks process.report.getReport() (~5-8 ms) and detect-libc loads node:child_process (~8 ms) before
// it reads /usr/bin/ldd. When ldd names glibc the answer is known without either; otherwise (musl,
// no ldd, another system) the packages themselves answer, exactly as without this file.
'use strict';

let lddSaysGlibc;
function glibcByLdd() {
  if (lddSaysGlibc === undefined) {
    try {
      lddSaysGlibc = process.platform === 'linux' && require('node:fs').readFileSync('/usr/bin/ldd', 'utf8').includes('GLIBC');
    } catch {
      lddSaysGlibc = false;
    }
  }
  return lddSaysGlibc;
}

const neon = () => require('@neon-rs/load');
const detectLibc = () => require('detect-libc');

module.exports = {
  // @neon-rs/load
  currentTarget: () => (glibcByLdd() && (process.arch === 'x64' || process.arch === 'arm64') ? `linux-${process.arch}-gnu` : neon().currentTarget()),
  load: (dirname) => neon().load(dirname),
  // detect-libc
  GLIBC: 'glibc',
  MUSL: 'musl',
  familySync: () => (glibcByLdd() ? 'glibc' : detectLibc().familySync()),
};
