/*
 * `npm install`'s step for this package: builds build/Release/dqs.node (binding.gyp) with the
 * node-gyp that npm runs install scripts with. Without a C toolchain the build fails; sqlboard then
 * still installs (judge, stats and the rest need no SQLite extension), and any command that
 * executes SQL stops at its start with a typed error saying how to fix it (src/execution/dqs.ts):
 * it never scores with a SQLite that reads double-quoted strings differently from the official one.
 */
'use strict';
const { spawnSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');

const root = join(__dirname, '..');
// npm names its own node-gyp in npm_config_node_gyp for install scripts; otherwise one on the PATH.
const gyp = process.env.npm_config_node_gyp;
const rebuild = ['rebuild'];
// node-gyp downloads Node's headers unless told where they are; the running Node's own
// installation usually has them (official builds and distribution packages ship include/node), and
// then the build needs no network.
const prefix = dirname(dirname(process.execPath));
if (!process.env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'common.gypi'))) rebuild.push(`--nodedir=${prefix}`);
const [cmd, args] = gyp ? [process.execPath, [gyp, ...rebuild]] : ['node-gyp', rebuild];
const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: !gyp && process.platform === 'win32' });
if (r.status !== 0) {
  process.stderr.write(
    '\nsqlboard: could not build its SQLite extension build/Release/dqs.node (node-gyp: ' +
      (r.error ? r.error.message : `exit ${r.status}`) +
      ').\nCommands that execute SQL (score, audit, ...) will refuse to run until it is built: install a C\n' +
      'compiler, make and Python 3 (what node-gyp needs), then run `npm rebuild sqlboard`.\n\n',
  );
}
