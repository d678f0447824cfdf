// infx dashboard: reads the JSON endpoints and draws three ECharts charts. No network beyond this server.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const status = $('status');
  const errors = $('errors');
  function fail(msg) {
    errors.textContent += msg + '\n';
    status.dataset.errors = String((+status.dataset.errors || 0) + 1);
  }
  window.addEventListener('error', (e) => fail('error: ' + e.message));
  window.addEventListener('unhandledrejection', (e) => fail('error: ' + (e.reason && e.reason.message || e.reason)));

  const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#8C564B',
    '#7F7F7F', '#BCBD22', '#17BECF', '#9467BD'];
  const charts = {
    tput: echarts.init($('tput-chart'), null, { renderer: 'canvas' }),
    latency: echarts.init($('latency-chart'), null, { renderer: 'canvas' }),
    history: echarts.init($('history-chart'), null, { renderer: 'canvas' }),
  };
  const params = new URLSearchParams(location.search);
  let rows = [];
  let selected = null;

  async function get(path) {
    const r = await fetch(path);
    const body = await r.json();
    if (!r.ok) { throw new Error(path + ': ' + (body.error || r.status)); }
    return body;
  }
  function query(extra) {
    const q = new URLSearchParams({ model: $('model').value });
    const w = $('workload').value;
    if (w) { const [isl, osl] = w.split('/'); q.set('isl', isl); q.set('osl', osl); }
    if ($('precision').value) { q.set('precision', $('precision').value); }
    Object.entries(extra || {}).forEach(([k, v]) => q.set(k, v));
    return q.toString();
  }
  function fill(select, values, labels, keep) {
    const old = keep ? select.value : null;
    select.innerHTML = '';
    values.forEach((v, i) => {
      const o = document.createElement('option');
      o.value = v; o.textContent = labels ? labels[i] : v; select.appendChild(o);
    });
    if (old !== null && values.includes(old)) { select.value = old; }
  }
  // A readable range even for one point per series: ±20 % around the data (at least ±1).
  function range(values) {
    const min = Math.min(...values), max = Math.max(...values);
    const mid = (min + max) / 2, half = Math.max(Math.abs(mid) * 0.2, 1);
    if (max - min >= 2 * half) { return {}; }
    return { min: min >= 0 ? Math.max(0, mid - half) : mid - half, max: mid + half };
  }
  const colourOf = {};
  function colour(series) {
    if (!(series in colourOf)) { colourOf[series] = PALETTE[Object.keys(colourOf).length % PALETTE.length]; }
    return colourOf[series];
  }
  function bySeries(list) {
    const m = new Map();
    list.forEach((r) => { if (!m.has(r.series)) { m.set(r.series, []); } m.get(r.series).push(r); });
    m.forEach((v) => v.sort((a, b) => a.conc - b.conc));
    return m;
  }

  async function loadFilters() {
    const models = await get('/api/v1/models');
    fill($('model'), models);
    if (params.get('model')) { $('model').value = params.get('model'); }
    await loadAvailability();
  }
  async function loadAvailability() {
    const a = await get('/api/v1/availability?model=' + encodeURIComponent($('model').value));
    const workloads = [...new Set(a.combos.map((c) => c.isl + '/' + c.osl))];
    const precisions = [...new Set(a.combos.map((c) => c.precision))];
    fill($('workload'), workloads, null, true);
    fill($('precision'), precisions, null, true);
    fill($('date'), ['latest', ...a.dates.slice().reverse()], ['latest', ...a.dates.slice().reverse()], true);
    ['workload', 'precision', 'date'].forEach((k) => { if (params.get(k)) { $(k).value = params.get(k); } });
  }

  async function redraw() {
    rows = await get('/api/v1/benchmarks?' + query({ date: $('date').value }));
    const fronts = await get('/api/v1/pareto?' + query({ date: $('date').value }));
    drawThroughput(fronts);
    drawLatency();
    $('simulated-note').style.display = rows.some((r) => r.simulated) ? 'block' : 'none';
    if (!selected || !rows.some((r) => key(r) === key(selected))) {
      selected = rows.length ? rows.reduce((a, b) => (b.conc > a.conc ? b : a)) : null;
    }
    await drawHistory();
    status.dataset.redraws = String(+status.dataset.redraws + 1);
  }
  const key = (r) => r.series + '|' + r.isl + '|' + r.osl + '|' + r.conc;

  function drawThroughput(fronts) {
    const xKey = $('xaxis').value;
    const series = [];
    let points = 0;
    const xs = [];
    bySeries(rows).forEach((list, name) => {
      const data = list.filter((r) => r.metrics[xKey] != null && r.metrics.tput_per_gpu != null)
        .map((r) => ({ value: [r.metrics[xKey], r.metrics.tput_per_gpu], conc: r.conc, row: r }));
      data.forEach((d) => xs.push(d.value[0]));
      points += data.length;
      const sim = list[0].simulated;
      series.push({ name, type: 'line', data, showSymbol: true, symbol: sim ? 'emptyCircle' : 'circle', symbolSize: 9,
        lineStyle: { type: sim ? 'dashed' : 'solid', width: 2 }, itemStyle: { color: colour(name) },
        label: { show: true, position: 'top', formatter: (p) => 'c' + p.data.conc, fontSize: 10 } });
    });
    let frontiers = 0;
    if (xKey === 'median_intvty') {
      Object.entries(fronts).forEach(([group, line]) => {
        if (line.length < 2) { return; }
        frontiers++;
        const all = group === 'all real configurations';
        series.push({ name: all ? 'Pareto frontier (all real configurations)' : 'frontier: ' + group, type: 'line',
          data: line, showSymbol: false, silent: true, z: all ? 3 : 1,
          lineStyle: { type: 'dashed', color: all ? '#222' : '#888', width: all ? 2.5 : 1.5 },
          itemStyle: { color: all ? '#222' : '#888' } });
      });
    }
    const xr = xs.length ? range(xs) : {};
    charts.tput.setOption({
      animation: false,
      tooltip: { trigger: 'item', formatter: (p) => p.data && p.data.row ? p.seriesName + '<br>conc ' + p.data.conc
        + '<br>tput/GPU ' + p.data.value[1].toFixed(1) + ' tok/s<br>' + xKey + ' ' + p.data.value[0].toFixed(3) : p.seriesName },
      legend: { type: 'scroll', bottom: 0 },
      grid: { left: 70, right: 30, top: 40, bottom: 70 },
      xAxis: { type: 'value', name: xKey === 'median_intvty' ? 'interactivity (tok/s/user)' : 'median E2EL (s)',
        nameLocation: 'middle', nameGap: 28, scale: true, ...xr },
      yAxis: { type: 'value', name: 'tput/GPU (tok/s)', min: 0 },
      series,
    }, true);
    $('tput-title').textContent = 'Throughput per GPU vs ' + (xKey === 'median_intvty' ? 'interactivity' : 'end-to-end latency')
      + ' — ' + ($('date').value === 'latest' ? 'latest snapshot' : 'as of ' + $('date').value);
    status.dataset.points = String(points);
    status.dataset.frontiers = String(frontiers);
    status.dataset.series = String(bySeries(rows).size);
  }

  function drawLatency() {
    const m = $('latency-metric').value;
    const series = [];
    bySeries(rows).forEach((list, name) => {
      const sim = list[0].simulated;
      series.push({ name, type: 'line', symbol: sim ? 'emptyCircle' : 'circle', symbolSize: 8,
        lineStyle: { type: sim ? 'dashed' : 'solid' }, itemStyle: { color: colour(name) },
        data: list.filter((r) => r.metrics[m] != null).map((r) => [r.conc, r.metrics[m] * 1000]) });
    });
    const concs = rows.map((r) => r.conc);
    charts.latency.setOption({
      animation: false, tooltip: { trigger: 'item' }, legend: { type: 'scroll', bottom: 0 },
      grid: { left: 60, right: 20, top: 40, bottom: 60 },
      xAxis: { type: 'log', logBase: 2, name: 'concurrency', nameLocation: 'middle', nameGap: 26,
        min: concs.length ? Math.min(...concs) / 1.5 : 0.5, max: concs.length ? Math.max(...concs) * 1.5 : 2 },
      yAxis: { type: 'value', name: $('latency-metric').selectedOptions[0].textContent, min: 0 },
      series,
    }, true);
  }

  async function drawHistory() {
    if (!selected) { charts.history.clear(); status.dataset.history = '0'; return; }
    const h = await get('/api/v1/history?' + query({ series: selected.series, isl: selected.isl, osl: selected.osl,
      conc: selected.conc, metric: 'tput_per_gpu' }));
    $('history-title').textContent = 'History: ' + selected.series + ', conc ' + selected.conc;
    const values = h.map((e) => ({ value: [e.date + ' ' + e.run_id, e.value],
      itemStyle: { color: e.regression ? '#d62728' : colour(selected.series) }, symbolSize: e.regression ? 14 : 8 }));
    const bars = h.filter((e) => e.ci_low != null).map((e) => [e.date + ' ' + e.run_id, e.ci_low, e.ci_high]);
    charts.history.setOption({
      animation: false, tooltip: { trigger: 'item' }, grid: { left: 70, right: 20, top: 40, bottom: 70 },
      xAxis: { type: 'category', data: h.map((e) => e.date + ' ' + e.run_id), axisLabel: { rotate: 20, fontSize: 10 } },
      yAxis: { type: 'value', name: 'tput/GPU (tok/s)', min: 0 },
      series: [
        { name: 'tput/GPU', type: 'line', data: values, symbol: selected.simulated ? 'emptyCircle' : 'circle' },
        { name: '95% interval', type: 'custom', data: bars, renderItem: (p, api) => {
          const lo = api.coord([api.value(0), api.value(1)]);
          const hi = api.coord([api.value(0), api.value(2)]);
          return { type: 'group', children: [
            { type: 'line', shape: { x1: lo[0], y1: lo[1], x2: hi[0], y2: hi[1] }, style: { stroke: '#333', lineWidth: 1.5 } },
            { type: 'line', shape: { x1: lo[0] - 5, y1: lo[1], x2: lo[0] + 5, y2: lo[1] }, style: { stroke: '#333' } },
            { type: 'line', shape: { x1: hi[0] - 5, y1: hi[1], x2: hi[0] + 5, y2: hi[1] }, style: { stroke: '#333' } }] };
        } },
      ],
    }, true);
    status.dataset.history = String(h.length);
    status.dataset.regressions = String(h.filter((e) => e.regression).length);
  }

  charts.tput.on('click', (p) => { if (p.data && p.data.row) { selected = p.data.row; drawHistory(); } });
  $('model').addEventListener('change', async () => { await loadAvailability(); await redraw(); });
  ['workload', 'precision', 'date', 'xaxis'].forEach((k) => $(k).addEventListener('change', () => redraw()));
  $('latency-metric').addEventListener('change', () => drawLatency());

  (async function init() {
    try {
      await loadFilters();
      await redraw();
      status.dataset.firstPoints = status.dataset.points;
      // ?change=date:2026-11-30 — a filter change after the first draw (the browser test's redraw check)
      const change = params.get('change');
      if (change) {
        const [k, v] = change.split(':');
        $(k).value = v;
        $(k).dispatchEvent(new Event('change'));
      }
      status.dataset.ready = 'true';
    } catch (e) {
      fail('error: ' + e.message);
      status.dataset.ready = 'failed';
    }
  })();
})();
