// Opens plume preview's page in Debian's Chromium and follows the scene
// through saves: a frame with smoke; the emitter moved (the smoke moves on
// the page); a misspelt key (the page shows the error's file, line and key);
// fixed again (smoke returns). Also: a path outside the preview is refused.
//
// Usage: node preview.mjs URL SCENE.toml [--chromium /usr/bin/chromium]
// Exit: 0 pass, 1 fail, 77 skip (no Chromium; a failure with PLUME_REQUIRE_ALL=1).
import fs from 'node:fs';

import { findChromium, launch, newProfile } from './chromium.mjs';

const say = (msg) => console.log(`preview: ${msg}`);
const fail = (msg) => { console.error(`preview: FAIL: ${msg}`); process.exitCode = 1; };

const args = process.argv.slice(2);
let chromiumPath = '/usr/bin/chromium';
const rest = [];
for (let i = 0; i < args.length; ++i) {
  if (args[i] === '--chromium') chromiumPath = args[++i];
  else rest.push(args[i]);
}
const [url, scenePath] = rest;

// Where the smoke is in the shown frame: the share of pixels brighter by
// 0.03 than the backdrop at their row (its ends: the backdrop is a vertical
// gradient), and their mean x (0 left, 1 right).
async function smoke(page) {
  return page.evaluate(() => {
    const img = document.getElementById('frame');
    const c = document.createElement('canvas');
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    const lum = (x, y) => {
      const i = 4 * (y * c.width + x);
      return (0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2]) / 255;
    };
    let n = 0, sx = 0;
    for (let y = 0; y < c.height; ++y) {
      let back = 0;
      for (let x = 0; x < 4; ++x) back += (lum(x, y) + lum(c.width - 1 - x, y)) / 8;
      for (let x = 0; x < c.width; ++x)
        if (lum(x, y) > back + 0.03) { ++n; sx += x / c.width; }
    }
    return { share: n / (c.width * c.height), x: n ? sx / n : -1,
             generation: Number(img.dataset.generation), frame: Number(img.dataset.frame) };
  });
}

// Waits until the page shows frame `frame` or later of a run after `after`.
async function frameOf(page, after, frame) {
  await page.waitForFunction(([a, f]) => {
    const img = document.getElementById('frame');
    return Number(img.dataset.generation) > a && Number(img.dataset.frame) >= f &&
      document.getElementById('error').style.display === 'none';
  }, [after, frame], { timeout: 60000, polling: 50 });
  return smoke(page);
}

async function main() {
  const found = await findChromium(chromiumPath, say, fail);
  if (!found.chromium) return found.code;
  const profile = newProfile();
  const browser = await launch(found.chromium, chromiumPath, profile);
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(url);

    // 1. The first preview: a frame with smoke.
    const first = await frameOf(page, 0, 20);
    say(`run ${first.generation}, frame ${first.frame}: smoke over ${(100 * first.share).toFixed(1)}% of the frame, at x ${first.x.toFixed(2)}`);
    if (!(first.share > 0.01)) fail('the first preview shows no smoke');

    // 2. Saved with the emitter moved right: the page shows the new smoke.
    const scene = fs.readFileSync(scenePath, 'utf8');
    fs.writeFileSync(scenePath, scene.replace('center = [0.4, 0.5, 0.3]', 'center = [1.1, 0.5, 0.3]'));
    const moved = await frameOf(page, first.generation, 20);
    say(`run ${moved.generation}, frame ${moved.frame}: smoke at x ${moved.x.toFixed(2)} (was ${first.x.toFixed(2)})`);
    if (!(moved.share > 0.01 && moved.x > first.x + 0.2)) fail('the moved emitter\'s smoke did not move right on the page');

    // 3. Saved with a misspelt key: the error, its file, line and key.
    fs.writeFileSync(scenePath, scene.replace('temperature = 1.5', 'temprature = 1.5'));
    await page.waitForFunction(() => document.getElementById('error').style.display === 'block',
      null, { timeout: 30000, polling: 50 });
    const error = await page.$eval('#error', (e) => e.textContent);
    const line = scene.split('\n').findIndex((l) => l.startsWith('temperature')) + 1;
    say(`the page shows: ${error}`);
    if (!error.includes(`puff.toml:${line}:`) || !error.includes('temprature'))
      fail(`the error does not name puff.toml:${line} and the key 'temprature'`);
    if (await page.$eval('#view', (e) => e.style.display) !== 'none') fail('the stale frame still shows beside the error');
    const errorRun = Number(await page.$eval('#error', (e) => e.dataset.generation));

    // 4. Fixed again: smoke returns.
    fs.writeFileSync(scenePath, scene);
    const fixed = await frameOf(page, errorRun, 20);
    say(`run ${fixed.generation}, frame ${fixed.frame}: smoke over ${(100 * fixed.share).toFixed(1)}%`);
    if (!(fixed.share > 0.01)) fail('no smoke after the fix');

    // Nothing outside the preview: these are refused.
    for (const p of ['/../../etc/passwd', '/frame/1/../../../etc/passwd', '/puff.toml', '/state/../puff.toml']) {
      const r = await page.request.get(url.replace(/\/$/, '') + p, { failOnStatusCode: false });
      if (r.status() !== 404) fail(`${p} answered ${r.status()}, not 404`);
    }
    if (errors.length) fail(`page errors: ${errors.join('; ')}`);
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  return process.exitCode || 0;
}

main().then((code) => { process.exitCode = code; }, (e) => { fail(e.stack || String(e)); });
