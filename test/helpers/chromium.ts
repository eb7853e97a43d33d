import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { ROOT } from './cli.js';

/** A system Chromium, when the machine has one (Debian's package installs it here). */
const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The headless Chromium the browser tests drive: $SQLBOARD_CHROMIUM, else a system Chromium, else the
 * headless shell that the @sparticuz/chromium dev dependency ships inside its npm package — so `npm test`
 * passes on a fresh machine with no browser and no apt step (playwright never downloads one).
 */
export function chromiumPath(): string {
  const fromEnv = process.env.SQLBOARD_CHROMIUM;
  if (fromEnv) return fromEnv;
  const system = SYSTEM_CHROMIUM.find((p) => existsSync(p));
  return system ?? bundledChromium();
}

/**
 * Unpacks the package's brotli archives once per package version into node_modules/.cache. The package
 * unpacks into os.tmpdir(), so a child process does it with TMPDIR set to a private staging directory,
 * which is then renamed into place: test files running in parallel never see a half-written binary.
 */
function bundledChromium(): string {
  const pkgJson = join(ROOT, 'node_modules', '@sparticuz', 'chromium', 'package.json');
  const { version } = JSON.parse(readFileSync(pkgJson, 'utf8')) as { version: string };
  const cache = join(ROOT, 'node_modules', '.cache', 'sqlboard-chromium');
  const final = join(cache, version);
  const binary = join(final, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(join(cache, `.staging-${version}-`));
  try {
    execFileSync(process.execPath, ['--input-type=module', '-e', "import c from '@sparticuz/chromium'; await c.executablePath();"], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: staging },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    renameSync(staging, final);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    // Another test file unpacked the same version first: use its copy.
    if (!existsSync(binary)) throw err;
  }
  return binary;
}

/**
 * Starts headless Chromium with a fresh profile directory (a persistent context is how
 * playwright accepts a user-data-dir) and returns it with a cleanup that also deletes the profile.
 */
export async function launchChromium(viewport = { width: 1280, height: 900 }): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'sqlboard-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    headless: true,
    args: ARGS,
    viewport,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
