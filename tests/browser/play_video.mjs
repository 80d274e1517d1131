// Plays an MP4 in Debian's Chromium, as a web page would, and checks that it
// really plays: metadata loads, duration and size are right, play() resolves,
// 'ended' fires, every frame is decoded and none corrupt, and the media
// element never reports an error.
//
// Usage: node play_video.mjs VIDEO.mp4 --width W --height H --frames N --fps F
//            [--chromium /usr/bin/chromium] [--timeout-ms 60000]
// Exit: 0 pass, 1 fail (playwright-core not installed included: run `npm ci` in
// tests/browser), 77 skip (no Chromium; a failure with PLUME_REQUIRE_ALL=1).
//
// Only loopback traffic: the video comes from a tiny HTTP server on 127.0.0.1
// (random port, Range requests, video/mp4) and every other request is aborted.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';

import { findChromium, launch, newProfile } from './chromium.mjs';

const say = (msg) => console.log(`play_video: ${msg}`);
const fail = (msg) => { console.error(`play_video: FAIL: ${msg}`); process.exitCode = 1; };

function parseArgs(argv) {
  const opt = { chromium: '/usr/bin/chromium', timeoutMs: 60000 };
  const rest = [];
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    const value = () => { if (i + 1 >= argv.length) throw new Error(`${a} needs a value`); return argv[++i]; };
    if (a === '--width') opt.width = Number(value());
    else if (a === '--height') opt.height = Number(value());
    else if (a === '--frames') opt.frames = Number(value());
    else if (a === '--fps') opt.fps = Number(value());
    else if (a === '--chromium') opt.chromium = value();
    else if (a === '--timeout-ms') opt.timeoutMs = Number(value());
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else rest.push(a);
  }
  if (rest.length !== 1) throw new Error('expected one VIDEO.mp4');
  opt.video = path.resolve(rest[0]);
  for (const k of ['width', 'height', 'frames', 'fps'])
    if (!(opt[k] > 0)) throw new Error(`--${k} must be a positive number`);
  return opt;
}

// A static server for one file and one page, with byte ranges (Chromium's media
// stack asks for them and needs 206 answers to seek and to learn the length).
function serve(videoPath) {
  const size = fs.statSync(videoPath).size;
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>plume video</title></head>
<body style="margin:0;background:#000"><video id="v" muted playsinline preload="auto" src="/video.mp4"></video></body></html>`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    if (url.pathname === '/' || url.pathname === '/index.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': Buffer.byteLength(page) });
      res.end(req.method === 'HEAD' ? undefined : page);
      return;
    }
    if (url.pathname !== '/video.mp4') {
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
      return;
    }
    const headers = { 'Content-Type': 'video/mp4', 'Accept-Ranges': 'bytes', 'Cache-Control': 'no-store' };
    const range = req.headers.range && /^bytes=(\d*)-(\d*)$/.exec(req.headers.range.trim());
    if (req.headers.range && !range) {
      res.writeHead(416, { 'Content-Range': `bytes */${size}` });
      res.end();
      return;
    }
    let start = 0, end = size - 1, status = 200;
    if (range) {
      if (range[1] === '') {                       // bytes=-N: the last N bytes
        start = Math.max(0, size - Number(range[2]));
      } else {
        start = Number(range[1]);
        if (range[2] !== '') end = Math.min(Number(range[2]), size - 1);
      }
      if (start > end || start >= size) {
        res.writeHead(416, { 'Content-Range': `bytes */${size}` });
        res.end();
        return;
      }
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
    headers['Content-Length'] = end - start + 1;
    res.writeHead(status, headers);
    if (req.method === 'HEAD') { res.end(); return; }
    fs.createReadStream(videoPath, { start, end }).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

function withTimeout(promise, ms, what) {
  let timer;
  const t = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms); });
  return Promise.race([promise, t]).finally(() => clearTimeout(timer));
}

async function main() {
  let opt;
  try {
    opt = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`play_video: usage error: ${e.message}`);
    console.error('usage: node play_video.mjs VIDEO.mp4 --width W --height H --frames N --fps F [--chromium PATH]');
    return 2;
  }
  const { chromium, code } = await findChromium(opt.chromium, say, fail);
  if (!chromium) return code;
  if (!fs.existsSync(opt.video)) { fail(`no video at ${opt.video}`); return 1; }

  const server = await serve(opt.video);
  const port = server.address().port;
  const origin = `http://127.0.0.1:${port}`;
  const profile = newProfile();
  let context;
  const t0 = Date.now();
  try {
    context = await withTimeout(launch(chromium, opt.chromium, profile, {},
      ['--autoplay-policy=no-user-gesture-required']), 45000, 'launching Chromium');
    const page = context.pages()[0] || await context.newPage();
    // Loopback only: anything not on our server is refused.
    await page.route('**/*', (route) =>
      route.request().url().startsWith(origin + '/') ? route.continue() : route.abort());
    const pageErrors = [];
    page.on('pageerror', (e) => pageErrors.push(String(e)));

    await page.goto(`${origin}/`, { waitUntil: 'domcontentloaded', timeout: 20000 });
    const r = await withTimeout(page.evaluate((timeoutMs) => new Promise((resolve) => {
      const v = document.getElementById('v');
      const out = { events: [], errors: [] };
      const finish = (why) => {
        out.why = why;
        out.paused = v.paused;
        out.error = v.error ? { code: v.error.code, message: v.error.message } : null;
        out.currentTime = v.currentTime;
        out.readyState = v.readyState;
        out.quality = v.getVideoPlaybackQuality ? (({ totalVideoFrames, droppedVideoFrames, corruptedVideoFrames }) =>
          ({ totalVideoFrames, droppedVideoFrames, corruptedVideoFrames }))(v.getVideoPlaybackQuality()) : null;
        resolve(out);
      };
      const t0 = performance.now();
      for (const e of ['loadstart', 'canplay', 'playing', 'waiting', 'stalled', 'pause', 'emptied'])
        v.addEventListener(e, () => out.events.push(`${e}@${Math.round(performance.now() - t0)}ms`));
      const timer = setTimeout(() => finish('timeout'), timeoutMs);
      v.addEventListener('error', () => { out.errors.push(v.error ? `${v.error.code} ${v.error.message}` : 'error'); clearTimeout(timer); finish('error'); });
      v.addEventListener('ended', () => { out.events.push('ended'); clearTimeout(timer); finish('ended'); });
      const onMeta = () => {
        if (out.meta) return;
        out.events.push('loadedmetadata');
        out.meta = { duration: v.duration, width: v.videoWidth, height: v.videoHeight };
        out.canPlayMp4 = v.canPlayType('video/mp4; codecs="avc1.42E01E"');
        v.play().then(() => { out.events.push('play-resolved'); out.playResolved = true; },
                      (e) => { out.playRejected = String(e); clearTimeout(timer); finish('play-rejected'); });
      };
      // Restart loading first, so the element cannot have metadata yet: the page
      // may have preloaded it, and a load() after play() would reset the
      // element to paused (or reject the play) and nothing would ever end.
      v.load();
      v.addEventListener('loadedmetadata', onMeta);
    }), opt.timeoutMs), opt.timeoutMs + 5000, 'playing the video');

    const expected = opt.frames / opt.fps;
    const tol = 1 / opt.fps + 0.02;
    say(`events: ${r.events.join(', ') || '(none)'}; ended by '${r.why}' after ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    say(`canPlayType(avc1.42E01E) = '${r.canPlayMp4 ?? ''}'`);
    if (r.meta) say(`metadata: duration ${r.meta.duration.toFixed(4)} s (expected ${expected.toFixed(4)} ± ${tol.toFixed(4)}), ${r.meta.width}x${r.meta.height} (expected ${opt.width}x${opt.height})`);
    if (r.quality) say(`playback quality: ${JSON.stringify(r.quality)}`);

    const problems = [];
    if (!r.meta) problems.push('loadedmetadata never fired');
    else {
      if (!(Math.abs(r.meta.duration - expected) <= tol)) problems.push(`duration ${r.meta.duration} s, expected ${expected.toFixed(4)} s (${opt.frames} frames at ${opt.fps} fps)`);
      if (r.meta.width !== opt.width || r.meta.height !== opt.height) problems.push(`video size ${r.meta.width}x${r.meta.height}, expected ${opt.width}x${opt.height}`);
    }
    if (r.meta && !r.playResolved) problems.push(`play() did not resolve${r.playRejected ? `: ${r.playRejected}` : ''}`);
    if (!r.events.includes('ended')) problems.push(`'ended' never fired (stopped by ${r.why}, currentTime ${r.currentTime}, readyState ${r.readyState}, paused ${r.paused})`);
    if (r.errors.length || r.error) problems.push(`media error: ${r.errors.join('; ') || JSON.stringify(r.error)}`);
    // Chromium counts every frame it decodes (measured: exactly 24 of 24, none corrupt).
    if (!r.quality) problems.push('no getVideoPlaybackQuality() to count the frames');
    else {
      if (r.quality.totalVideoFrames !== opt.frames) problems.push(`Chromium decoded ${r.quality.totalVideoFrames} frames, expected ${opt.frames}`);
      if (r.quality.corruptedVideoFrames !== 0) problems.push(`${r.quality.corruptedVideoFrames} corrupted frames`);
    }
    if (pageErrors.length) problems.push(`page errors: ${pageErrors.join('; ')}`);
    if (problems.length) { for (const p of problems) fail(p); return 1; }
    say('PASS: the MP4 plays to the end in Chromium');
    return 0;
  } catch (e) {
    fail(e.message || String(e));
    return 1;
  } finally {
    if (context) await context.close().catch(() => {});
    server.close();
    server.closeAllConnections?.();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

const code = await main();
process.exit(code ?? process.exitCode ?? 0);
