#include "preview/preview_page.h"

namespace plume {

// The state comes from /state a few times a second; frames from
// /frame/RUN/N.png. The image and the error carry data- attributes saying
// what they show, for the browser test (tests/browser/preview.mjs).
std::string previewPage() {
    return R"html(<!doctype html>
<html><head><meta charset="utf-8"><title>plume preview</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 16px; background: #1d1f22; color: #ddd; }
#view { position: relative; display: inline-block; background: #000; min-width: 320px; min-height: 180px; }
#frame { display: block; image-rendering: auto; }
#error { display: none; color: #ffb4a8; background: #3a1f1c; padding: 12px; white-space: pre-wrap; margin: 0; }
#status { margin: 8px 0; color: #aaa; }
.chart { width: 640px; height: 200px; margin-top: 12px; }
</style>
<script src="/chart.js"></script>
</head><body>
<div id="status">waiting for the first preview&hellip;</div>
<div id="view"><img id="frame" alt="" data-generation="0" data-frame="0"></div>
<pre id="error" data-generation="0"></pre>
<div class="chart"><canvas id="chart"></canvas></div>
<script>
'use strict';
const img = document.getElementById('frame');
const errorBox = document.getElementById('error');
const statusLine = document.getElementById('status');
let state = { generation: 0, frames: 0 };
let shown = 0, lastTick = 0, chart = null, loading = false;

function drawChart(s) {
  if (!window.Chart) return;
  const labels = s.stats.sim_seconds.map((_, i) => i + 1);
  const data = {
    labels,
    datasets: [
      { label: 'simulate (ms)', data: s.stats.sim_seconds.map(v => v * 1000), borderColor: '#4e9be6', pointRadius: 0 },
      { label: 'render (ms)', data: s.stats.render_seconds.map(v => v * 1000), borderColor: '#e6a04e', pointRadius: 0 },
    ],
  };
  if (!chart) {
    chart = new Chart(document.getElementById('chart'), { type: 'line', data,
      options: { animation: false, responsive: true, maintainAspectRatio: false,
                 scales: { y: { beginAtZero: true } }, plugins: { legend: { labels: { color: '#ddd' } } } } });
  } else {
    chart.data = data;
    chart.update('none');
  }
}

async function poll() {
  try {
    const r = await fetch('/state', { cache: 'no-store' });
    const s = await r.json();
    if (s.generation !== state.generation) shown = 0;
    state = s;
    if (s.error) {
      errorBox.textContent = s.error;
      errorBox.dataset.generation = s.generation;
      errorBox.style.display = 'block';
      document.getElementById('view').style.display = 'none';
      statusLine.textContent = 'preview ' + s.generation + ': the scene has an error';
    } else {
      errorBox.style.display = 'none';
      errorBox.textContent = '';
      document.getElementById('view').style.display = 'inline-block';
      const when = s.first_frame_seconds >= 0 ? ', first frame ' + s.first_frame_seconds.toFixed(2) + ' s after the save' : '';
      statusLine.textContent = 'preview ' + s.generation + ' of ' + s.scene + ': ' + s.frames + '/' + s.total +
        ' frames' + (s.running ? ' (running)' : '') + when;
      drawChart(s);
    }
  } catch (e) {
    statusLine.textContent = 'plume preview is not answering (stopped?)';
  }
  setTimeout(poll, 200);
}

// Plays the newest run's frames at its frame rate, looping; a frame not yet
// there holds the one before.
function tick(now) {
  requestAnimationFrame(tick);
  if (state.error || !state.frames || loading) return;
  if (now - lastTick < 1000 / (state.fps || 24)) return;
  lastTick = now;
  shown = shown >= state.frames ? 1 : shown + 1;
  const generation = state.generation, frame = shown;
  loading = true;
  const next = new Image();
  next.onload = () => {
    img.src = next.src;
    img.dataset.generation = generation;
    img.dataset.frame = frame;
    loading = false;
  };
  next.onerror = () => { loading = false; };
  next.src = '/frame/' + generation + '/' + frame + '.png';
}

poll();
requestAnimationFrame(tick);
</script>
</body></html>
)html";
}

}  // namespace plume
