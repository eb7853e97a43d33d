/**
 * Bundles the compiled CLI (dist/src/cli.js, built by tsc) into dist/cli/, which bin/sqlboard.js
 * loads. Node resolves, reads and compiles every ESM module on its own: the 60–110 modules a
 * command loaded (yargs and its helpers among them) cost more than most commands' own work, so the
 * CLI ships as one entry file plus chunks that only the verb being run imports (splitting keeps
 * each `import()` lazy). The library API (package.json "exports" → dist/src/api.js) stays unbundled.
 *
 * Kept as separate files: the execution and timing processes, which src/execution forks as
 * `./exec-child.cjs` (below) / `./timing-child.js` next to the module that forks them; every chunk is
 * written to dist/cli/ itself, so that module finds them there. Modules that find the package's
 * files (data/, prompts/, package.json) walk up from their own location, and dist/cli/ sits as far
 * below the package root as dist/src/ does, within their reach.
 *
 * Left to Node at run time (external): better-sqlite3 (native), the LLM SDKs and js-tiktoken (only
 * LLM commands import them, dynamically, as before), and the packages loaded with createRequire
 * where first used (node-sql-parser, cli-progress).
 */
import { build, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NARROW_TEXT } from './narrow-text.js';

// This file runs compiled, as dist/scripts/bundle-cli.js.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SRC = join(ROOT, 'dist', 'src');
const OUT = join(ROOT, 'dist', 'cli');
const DEPENDENCIES = new Set(Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies));

const EXTERNAL = ['better-sqlite3', 'openai', '@google/genai', 'js-tiktoken', 'js-tiktoken/*', 'node-sql-parser', 'cli-progress'];

/** Bundled packages whose `import.meta.url` may be the bundle's, and why. */
const OWN_URL_NOT_NEEDED: Record<string, string> = {
  // createRequire(import.meta.url) only to load a config file by its absolute path (yargs .config()).
  'yargs-parser': 'absolute paths only',
};

/** The package a file in node_modules belongs to (`yargs`, `@scope/name`) and the file's path in it. */
function packageOf(file: string): { name: string; inside: string } {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  const end = at + (parts[at + 1]!.startsWith('@') ? 3 : 2);
  return { name: parts.slice(at + 1, end).join('/'), inside: parts.slice(end).join('/') };
}

/**
 * Where a package is installed as seen from a module: the first `node_modules/<name>` up from the
 * module's folder, the folders Node's resolution of a bare name tries. `import.meta.resolve` would
 * say the same, but its first call cost 6-27 ms of every start-up (measured); this costs < 1 ms.
 */
const OWN_URL_HELPER = `import { existsSync } from 'node:fs';
export function installedFileUrl(from, name, inside) {
  for (let dir = new URL('.', from); ; ) {
    if (!dir.pathname.endsWith('/node_modules/')) {
      const pkg = new URL('node_modules/' + name + '/', dir);
      if (existsSync(new URL('package.json', pkg))) return new URL(inside, pkg).href;
    }
    const up = new URL('..', dir);
    if (up.href === dir.href) throw new Error('sqlboard: cannot find its dependency ' + name + ' in a node_modules folder above ' + from);
    dir = up;
  }
}`;

/**
 * A bundled dependency that finds its own files from `import.meta.url` (yargs: its locales, and
 * the package.json above its node_modules whose version `--version` prints) would otherwise look
 * next to the bundle. Each such `import.meta.url` becomes the file's own URL in the installed
 * package, found at run time from the bundle as Node finds the package; only a direct dependency
 * is sure to be found there wherever this package is installed.
 */
const ownUrlOfDependencies: Plugin = {
  name: 'own-url-of-dependencies',
  setup(b) {
    b.onResolve({ filter: /^sqlboard-own-url$/ }, () => ({ path: 'own-url.js', namespace: 'sqlboard-own-url' }));
    b.onLoad({ filter: /.*/, namespace: 'sqlboard-own-url' }, () => ({ contents: OWN_URL_HELPER, loader: 'js' }));
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, async (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const { name, inside } = packageOf(args.path);
      if (OWN_URL_NOT_NEEDED[name]) return undefined;
      const entry = await b.resolve(name, { kind: 'import-statement', resolveDir: dirname(args.path) });
      const fromBundle = await b.resolve(name, { kind: 'import-statement', resolveDir: OUT });
      if (!DEPENDENCIES.has(name) || entry.errors.length > 0 || entry.path !== fromBundle.path) {
        return { errors: [{ text: `${args.path} finds its files from import.meta.url, and ${name} is not a dependency resolving to this copy from ${OUT}` }] };
      }
      // Imports are evaluated before the module's body, whatever their place in it.
      const own = `import { installedFileUrl as __installedFileUrl } from 'sqlboard-own-url';
const __ownUrl = __installedFileUrl(import.meta.url, ${JSON.stringify(name)}, ${JSON.stringify(inside.split(sep).join('/'))});
`;
      return { contents: own + text.replaceAll('import.meta.url', '__ownUrl'), loader: 'js' };
    });
  },
};

/**
 * Packages that do work when imported, which most runs never need, evaluated on first use instead:
 * each import of them gets a wrapper of their default export (a function) that requires the copy
 * the importer would have loaded when first called (esbuild evaluates a module reached by
 * require() only when the require runs).
 * - string-width (yargs' help layout, cli-table3's cells) builds an Intl.Segmenter and compiles
 *   `\p{RGI_Emoji}` when imported: loading ICU's segmentation data cost more than the rest of
 *   `sqlboard --help` (docs/performance.md "Benchmarks"). Its wrapper measures narrow text itself
 *   (scripts/narrow-text.ts: one column per character in every copy), so most runs never load it.
 * - cliui (with wrap-ansi, ansi-styles and string-width) lays out yargs' help and error text, which
 *   a command that runs does not print.
 */
const LAZY: Record<string, string> = {
  'string-width': `if (typeof args[0] === 'string' && ${NARROW_TEXT}.test(args[0])) return args[0].length;`,
  cliui: '',
};

const lazyOnFirstCall: Plugin = {
  name: 'lazy-on-first-call',
  setup(b) {
    const filter = new RegExp(`^(${Object.keys(LAZY).join('|')})$`);
    b.onResolve({ filter }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      // A CommonJS name: esbuild takes a .mjs path for ESM, where module.exports means nothing.
      return { path: `${real.path}.lazy.cjs`, namespace: 'lazy-on-first-call', pluginData: { name: args.path, real: real.path } };
    });
    b.onLoad({ filter: /.*/, namespace: 'lazy-on-first-call' }, (args) => {
      const { name, real } = args.pluginData as { name: string; real: string };
      return {
        contents: `let real;
module.exports = function (...args) {
  ${LAZY[name]}
  real ??= require(${JSON.stringify(real)});
  return (real.default ?? real)(...args);
};`,
        loader: 'js',
        resolveDir: dirname(real),
      };
    });
  },
};

// Chunks are named by their hash: old ones would pile up.
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

/** What every build of the CLI shares. */
const COMMON = {
  absWorkingDir: ROOT,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  sourcemap: true,
  logLevel: 'warning',
  // ESM has no `require`, which bundled CommonJS modules call for Node's built-ins (cli-table3's
  // colors: `require('os')`, inside a try that would otherwise quietly turn colours off).
  banner: { js: "import { createRequire as __sqlboardCreateRequire } from 'node:module'; const require = __sqlboardCreateRequire(import.meta.url);" },
} as const;

await build({
  ...COMMON,
  entryPoints: {
    sqlboard: join(SRC, 'cli.js'),
    'timing-child': join(SRC, 'execution', 'timing-child.js'),
  },
  outdir: OUT,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  splitting: true,
  plugins: [ownUrlOfDependencies, lazyOnFirstCall],
});

/**
 * The execution process (exec-child) as one CommonJS file, beside every module that forks it: the
 * CLI's bundle here and tsc's exec-process.js (which bin/sqlboard.js uses to start the first one
 * early, and the library API uses). A CommonJS main module boots without Node's ES module loader,
 * some 50 ms of CPU less per process (exec-process.ts).
 */
for (const dir of [OUT, join(SRC, 'execution')]) {
  await build({
    absWorkingDir: ROOT,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3'],
    logLevel: 'warning',
    entryPoints: [join(SRC, 'execution', 'exec-child.js')],
    outfile: join(dir, 'exec-child.cjs'),
  });
}

/**
 * The same CLI once more per verb, as one file (dist/cli/verb-<verb>.js) holding that verb only,
 * for bin/sqlboard.js to run a command through. Node loads an ES module at a fixed cost each, and
 * the split build's verbs reach theirs through 10-25 chunks: one file cut a command's start by
 * 30-40 ms of CPU (stats gap, leaderboard, score up to its first error; measured side by side). A
 * verb's run code stays unevaluated until its handler imports it (esbuild keeps a dynamic import
 * lazy within one file); the split build keeps serving `--help`, which loads only the flags.
 * The other verbs' modules are left out: commands/index.ts loads only the verb named in the
 * arguments, the one bin/ chose the file by, and a module left out says so if ever loaded.
 */
const VERB_NAMES = Object.keys((await import(pathToFileURL(join(SRC, 'commands', 'verbs.js')).href) as { VERBS: object }).VERBS);
const VERB_MODULE = /^\.\/([a-z]+)\.js$/;

function onlyVerb(verb: string): Plugin {
  return {
    name: 'only-verb',
    setup(b) {
      b.onResolve({ filter: VERB_MODULE }, (args) => {
        const name = VERB_MODULE.exec(args.path)![1]!;
        if (args.kind !== 'dynamic-import' || !args.importer.endsWith(join('commands', 'index.js')) || name === verb) return undefined;
        return { path: name, namespace: 'other-verb' };
      });
      b.onLoad({ filter: /.*/, namespace: 'other-verb' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`sqlboard: internal error: dist/cli/verb-${verb}.js holds no ${args.path} command`)});`,
        loader: 'js',
      }));
    },
  };
}

for (const verb of VERB_NAMES) {
  await build({
    ...COMMON,
    entryPoints: { [`verb-${verb}`]: join(SRC, 'cli.js') },
    outdir: OUT,
    entryNames: '[name]',
    plugins: [onlyVerb(verb), ownUrlOfDependencies, lazyOnFirstCall],
    // 1.2 MB of maps per verb would double the package; the split build's maps cover the same source.
    sourcemap: false,
  });
}
// bin/sqlboard.js reads the verbs' names here rather than loading the CLI to learn them.
writeFileSync(join(OUT, 'verbs.json'), JSON.stringify(VERB_NAMES) + '\n');
