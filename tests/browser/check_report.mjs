// Opens a plume --report page in Debian's Chromium, offline, and checks that
// it works as a reader would see it: every chart drew its line (its canvas
// holds pixels of the line's own colour, not only axes), every contact-sheet
// picture decoded, the console shows no error and the page asked the network
// for nothing.
//
// Usage: node check_report.mjs REPORT.html --charts N --pictures M
//            [--chromium /usr/bin/chromium] [--timeout-ms 30000]
// Exit: 0 pass, 1 fail, 2 usage, 77 skip (no Chromium; a failure with PLUME_REQUIRE_ALL=1).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { findChromium, launch, newProfile } from './chromium.mjs';

const say = (msg) => console.log(`check_report: ${msg}`);
const fail = (msg) => { console.error(`check_report: FAIL: ${msg}`); process.exitCode = 1; };

function parseArgs(argv) {
  const opt = { chromium: '/usr/bin/chromium', timeoutMs: 30000 };
  const rest = [];
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    if (a === '--charts') opt.charts = Number(value());
    else if (a === '--pictures') opt.pictures = Number(value());
    else if (a === '--chromium') opt.chromium = value();
    else if (a === '--timeout-ms') opt.timeoutMs = Number(value());
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else rest.push(a);
  }
  if (rest.length !== 1) throw new Error('expected one REPORT.html');
  opt.report = path.resolve(rest[0]);
  for (const k of ['charts', 'pictures'])
    if (!(opt[k] >= 0)) throw new Error(`--${k} must be a number`);
  return opt;
}

// In the page: per canvas, its size, the pixels drawn at all and those of
// its line's colour (data-color; antialiased edges are near it, not on it).
function inspect() {
  const hex = (s) => [1, 3, 5].map((i) => parseInt(s.slice(i, i + 2), 16));
  const charts = [...document.querySelectorAll('canvas')].map((canvas) => {
    const [r, g, b] = hex(canvas.dataset.color || '#000000');
    const ctx = canvas.getContext('2d');
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let drawn = 0, line = 0;
    for (let p = 0; p < data.length; p += 4) {
      if (data[p + 3] === 0) continue;
      ++drawn;
      if (Math.abs(data[p] - r) + Math.abs(data[p + 1] - g) + Math.abs(data[p + 2] - b) < 48) ++line;
    }
    return { id: canvas.id, width: canvas.width, height: canvas.height, drawn, line };
  });
  const pictures = [...document.querySelectorAll('.sheet img')].map((img) => ({
    alt: img.alt, complete: img.complete, width: img.naturalWidth, height: img.naturalHeight }));
  return { charts, pictures, chartJs: typeof Chart === 'function' ? Chart.version : null };
}

async function main() {
  let opt;
  try {
    opt = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`check_report: usage error: ${e.message}`);
    console.error('usage: node check_report.mjs REPORT.html --charts N --pictures M [--chromium PATH]');
    return 2;
  }
  const { chromium, code } = await findChromium(opt.chromium, say, fail);
  if (!chromium) return code;
  if (!fs.existsSync(opt.report)) { fail(`no report at ${opt.report}`); return 1; }

  const pageUrl = pathToFileURL(opt.report).href;
  const profile = newProfile();
  let context;
  const t0 = Date.now();
  try {
    context = await launch(chromium, opt.chromium, profile,
      { offline: true, viewport: { width: 1280, height: 900 } });
    const page = context.pages()[0] || await context.newPage();
    // The page itself is the one request allowed; anything else is refused
    // and counted (data: URIs are not requests).
    const requests = [];
    await page.route('**/*', (route) => {
      const url = route.request().url();
      if (url === pageUrl) return route.continue();
      requests.push(url);
      return route.abort();
    });
    page.on('request', (r) => { const url = r.url(); if (url !== pageUrl && !url.startsWith('data:') && !requests.includes(url)) requests.push(url); });
    const consoleErrors = [];
    page.on('console', (m) => { if (m.type() === 'error') consoleErrors.push(m.text()); });
    page.on('pageerror', (e) => consoleErrors.push(String(e)));

    await page.goto(pageUrl, { waitUntil: 'load', timeout: opt.timeoutMs });
    const r = await page.evaluate(inspect);
    say(`Chart.js ${r.chartJs ?? '(not loaded)'}; ${r.charts.length} charts, ${r.pictures.length} pictures, ` +
        `loaded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    for (const c of r.charts) say(`  ${c.id}: ${c.width}x${c.height}, ${c.drawn} pixels drawn, ${c.line} of its line's colour`);

    const problems = [];
    if (!r.chartJs) problems.push('Chart.js is not defined in the page');
    if (r.charts.length !== opt.charts) problems.push(`${r.charts.length} charts, expected ${opt.charts}`);
    for (const c of r.charts) {
      if (c.drawn === 0) problems.push(`${c.id} is blank`);
      // A line across the plot: far more than a few stray pixels of its colour.
      else if (c.line < 40) problems.push(`${c.id} drew no line (${c.line} pixels of its colour)`);
    }
    if (r.pictures.length !== opt.pictures) problems.push(`${r.pictures.length} pictures on the contact sheet, expected ${opt.pictures}`);
    for (const p of r.pictures)
      if (!p.complete || p.width === 0) problems.push(`the contact sheet's '${p.alt}' did not decode`);
    if (consoleErrors.length) problems.push(`console errors: ${consoleErrors.join(' | ')}`);
    if (requests.length) problems.push(`network requests: ${requests.join(', ')}`);
    if (problems.length) { for (const p of problems) fail(p); return 1; }
    say('PASS: every chart drew, offline, without errors');
    return 0;
  } catch (e) {
    fail(e.message || String(e));
    return 1;
  } finally {
    if (context) await context.close().catch(() => {});
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const code = await main();
process.exit(code ?? process.exitCode ?? 0);
