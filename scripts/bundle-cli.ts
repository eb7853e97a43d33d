/**
 * Bundles the compiled CLI (dist/src/cli.js, built by tsc) into dist/cli/, which bin/sqlboard.js
 * loads. Node resolves, reads and compiles every ESM module on its own: the 60–110 modules a
 * command loaded (yargs and its helpers among them) cost more than most commands' own work, so the
 * CLI ships as one entry file plus chunks that only the verb being run imports (splitting keeps
 * each `import()` lazy). The library API (package.json "exports" → dist/src/api.js) stays unbundled.
 *
 * Kept as separate entry files: the execution and timing processes, which src/execution forks as
 * `./exec-child.js` / `./timing-child.js` next to the module that forks them; every chunk is
 * written to dist/cli/ itself, so that module finds them there. Modules that find the package's
 * files (data/, prompts/, package.json) walk up from their own location, and dist/cli/ sits as far
 * below the package root as dist/src/ does, within their reach.
 *
 * Left to Node at run time (external): better-sqlite3 (native), the LLM SDKs and js-tiktoken (only
 * LLM commands import them, dynamically, as before), and the packages loaded with createRequire
 * where first used (node-sql-parser, cli-progress).
 */
import { build, type Plugin } from 'esbuild';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** The package a file in node_modules belongs to: `yargs`, `@scope/name`. */
function packageOf(file: string): string {
  const parts = file.split(sep);
  const at = parts.lastIndexOf('node_modules');
  return parts.slice(at + 1, at + (parts[at + 1]!.startsWith('@') ? 3 : 2)).join('/');
}

/**
 * A bundled dependency that finds its own files from `import.meta.url` (yargs: its locales, and
 * the package.json above its node_modules whose version `--version` prints) would otherwise look
 * next to the bundle. Each such `import.meta.url` becomes the file's own URL in the installed
 * package, found at run time by Node's resolution of the package from the bundle; only a direct
 * dependency is sure to resolve there wherever this package is installed.
 */
const ownUrlOfDependencies: Plugin = {
  name: 'own-url-of-dependencies',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.m?js$/ }, async (args) => {
      const text = readFileSync(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const name = packageOf(args.path);
      if (OWN_URL_NOT_NEEDED[name]) return undefined;
      const entry = await b.resolve(name, { kind: 'import-statement', resolveDir: dirname(args.path) });
      const fromBundle = await b.resolve(name, { kind: 'import-statement', resolveDir: OUT });
      if (!DEPENDENCIES.has(name) || entry.errors.length > 0 || entry.path !== fromBundle.path) {
        return { errors: [{ text: `${args.path} finds its files from import.meta.url, and ${name} is not a dependency resolving to this copy from ${OUT}` }] };
      }
      const fromEntry = relative(dirname(entry.path), args.path).split(sep).join('/');
      const own = `new URL(${JSON.stringify(fromEntry)}, import.meta.resolve(${JSON.stringify(name)})).href`;
      return { contents: text.replaceAll('import.meta.url', own), loader: 'js' };
    });
  },
};

/**
 * string-width (yargs, its cliui and wrap-ansi lay out help and errors with it; cli-table3 its
 * cells) builds an Intl.Segmenter and Unicode-property regular expressions when it is imported:
 * loading ICU's segmentation data and compiling `\p{RGI_Emoji}` cost more than the rest of
 * `sqlboard --help` (README "Benchmarks"). Each import of it gets a wrapper instead that answers
 * printable ASCII itself (one column per character, as every string-width version counts it) and
 * loads the copy the importer would have loaded on the first other text.
 */
const lazyStringWidth: Plugin = {
  name: 'lazy-string-width',
  setup(b) {
    b.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'real' });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: 'lazy-string-width' };
    });
    // esbuild evaluates a module reached by require() only when the require runs.
    b.onLoad({ filter: /.*/, namespace: 'lazy-string-width' }, (args) => ({
      contents: `let real;
module.exports = function stringWidth(text, options) {
  if (typeof text === 'string' && /^[\\x20-\\x7e]*$/.test(text)) return text.length;
  real ??= require(${JSON.stringify(args.path)});
  return (real.default ?? real)(text, options);
};`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

// Chunks are named by their hash: old ones would pile up.
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

await build({
  absWorkingDir: ROOT,
  entryPoints: {
    sqlboard: join(SRC, 'cli.js'),
    'exec-child': join(SRC, 'execution', 'exec-child.js'),
    'timing-child': join(SRC, 'execution', 'timing-child.js'),
  },
  outdir: OUT,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  plugins: [ownUrlOfDependencies, lazyStringWidth],
  sourcemap: true,
  logLevel: 'warning',
  // ESM has no `require`, which bundled CommonJS modules call for Node's built-ins (cli-table3's
  // colors: `require('os')`, inside a try that would otherwise quietly turn colours off).
  banner: { js: "import { createRequire as __sqlboardCreateRequire } from 'node:module'; const require = __sqlboardCreateRequire(import.meta.url);" },
});
