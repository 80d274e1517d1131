// How the browser tests reach Debian's Chromium: through playwright-core
// (installed by npm ci, with no browser of its own), started headless with
// the flags this machine's closed network needs (no background connections,
// each refused many times over) and a profile of its own.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const SKIP = 77;

export const kFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic',
  '--no-first-run', '--disable-background-networking', '--disable-component-update',
  '--disable-sync'];

// playwright-core's chromium, or the exit code when there is none to use:
// SKIP without Chromium (a failure with PLUME_REQUIRE_ALL=1, as in CI), 1
// without playwright-core. `say` and `fail` are the test's own reporters.
export async function findChromium(executable, say, fail) {
  if (!fs.existsSync(executable)) {
    const why = `no Chromium at ${executable} (apt-get install chromium)`;
    if (process.env.PLUME_REQUIRE_ALL === '1') {
      fail(`${why} (PLUME_REQUIRE_ALL=1: nothing may be skipped)`);
      return { code: 1 };
    }
    say(`SKIP: ${why}`);
    return { code: SKIP };
  }
  try {
    const { chromium } = await import('playwright-core');
    return { chromium };
  } catch (e) {
    fail(`cannot import playwright-core (run: cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci): ${e.code || e.message}`);
    return { code: 1 };
  }
}

// A new empty profile folder (the caller removes it when done).
export function newProfile() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'plume-chromium-'));
}

// A headless Chromium on `profile`; `options` adds to playwright's launch
// options, `extraFlags` to the command line.
export function launch(chromium, executable, profile, options = {}, extraFlags = []) {
  return chromium.launchPersistentContext(profile, {
    executablePath: executable,
    headless: true,
    timeout: 30000,
    ...options,
    args: [...kFlags, ...extraFlags],
  });
}
