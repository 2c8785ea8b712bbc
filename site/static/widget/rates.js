// rates.js: the Rates view: the node's metrics over virtual time as the
// RabbitMQ management UI charts them: message rates, queued messages,
// memory against the high watermark, and how busy each scheduler was.
// Each chart has a legend with the latest values; the table view has the
// same samples as text.

import { h, setText } from "./dom.js";
import { alarmsOf, decimals, formatCount, formatSize, formatTime } from "./format.js";
import { lineChart, niceStep, niceTop, plotLeft } from "./charts.js";
import { translator } from "./i18n.js";

const SAMPLE_US = 100_000; // engine.SampleInterval
const MIN_SPAN_US = 1_000_000; // the time axis shows at least this much
const HEIGHT = 150;
const SCHEDULER_COLOURS = 8; // rates.css has s-sched0 .. s-sched7

const RATES = [
  { key: "publish", label: "Publish" },
  { key: "confirm", label: "Confirm" },
  { key: "deliver", label: "Deliver" },
  { key: "ack", label: "Ack" },
];

const rate = (v) => `${formatCount(v)}/s`;
const percent = (v) => `${Math.round(v * 100)}%`;

/** column is one field of the samples as [time, value] points. */
function column(samples, key) {
  return samples.map((x) => [x.time, x[key]]);
}

/** above is the time spans in which the line through points is over
 * limit, where it crosses the limit found between two points. */
function above(points, limit) {
  const spans = [];
  const cross = ([ta, va], [tb, vb]) => ta + ((limit - va) / (vb - va)) * (tb - ta);
  let from = null;
  points.forEach((p, i) => {
    const prev = points[i - 1];
    if (p[1] > limit && from === null) {
      from = prev ? cross(prev, p) : p[0];
    } else if (p[1] <= limit && from !== null) {
      spans.push([from, cross(prev, p)]);
      from = null;
    }
  });
  if (from !== null) {
    spans.push([from, points[points.length - 1][0]]);
  }
  return spans;
}

/** byteAxis is a value axis for sizes from lo to hi bytes: a little room
 * around them, ticks at round numbers of KiB, MiB or GiB. */
function byteAxis(lo, hi) {
  const pad = Math.max((hi - lo) * 0.15, hi * 0.01, 1);
  lo = Math.max(0, lo - pad);
  hi += pad;
  let k = 0;
  while (hi / 1024 ** k >= 1024 && k < 3) {
    k++;
  }
  const unit = 1024 ** k;
  const step = niceStep((hi - lo) / unit, 4);
  const digits = decimals(step);
  const name = ["B", "KiB", "MiB", "GiB"][k];
  return {
    bottom: Math.floor(lo / unit / step) * step * unit,
    top: Math.ceil(hi / unit / step) * step * unit,
    step: step * unit,
    formatY: (v) => `${(v / unit).toFixed(digits)} ${name}`,
  };
}

/** Rates is the Rates view of one widget; el is its element. */
export class Rates {
  constructor(tr = translator("en")) {
    const t = (this.tr = tr);
    this.empty = h("p.empty", { text: t("rates.empty") });
    this.span = h("p.rates-span");
    this.charts = {};
    for (const [key, title] of [
      ["rates", t("rates.rates")],
      ["depth", t("rates.depth")],
      ["memory", t("diagram.memory")],
      ["schedulers", t("rates.schedulers")],
    ]) {
      const c = {
        title: h("h3", { text: title }),
        badge: h("span.badge.alarm", { hidden: true }),
        plot: h("div.plot"),
        legend: h("ul.legend", { "aria-label": t("rates.latestValues", { title }) }),
      };
      c.el = h("figure.chart", { "data-chart": key }, h("figcaption", null, c.title, c.badge), c.plot, c.legend);
      this.charts[key] = c;
    }
    this.grid = h("div.charts", null, Object.values(this.charts).map((c) => c.el));
    this.el = h(
      "div.rates",
      { "data-role": "rates", role: "group", "aria-label": t("rates.label") },
      this.span,
      this.empty,
      this.grid,
    );
    this.last = null;
    this.width = 0;
    // Charts are drawn at the width they have: draw them again when it
    // changes (a phone turned, a hidden widget shown). NB: the plot's
    // height never changes, and the drawing waits for the next frame, so
    // that drawing cannot set off the observer again.
    if (typeof ResizeObserver === "function") {
      new ResizeObserver(() =>
        requestAnimationFrame(() => {
          const w = this.plotWidth();
          if (this.last && w && w !== this.width) {
            this.render(...this.last);
          }
        }),
      ).observe(this.charts.rates.plot);
    }
  }

  plotWidth() {
    return Math.floor(this.charts.rates.plot.clientWidth);
  }

  /** render draws samples (those taken by the snapshot's time) and marks
   * the snapshot's watermark and alarms. */
  render(snap, samples) {
    this.last = [snap, samples];
    const none = samples.length === 0;
    this.empty.hidden = !none;
    this.grid.hidden = none;
    this.width = this.plotWidth();
    if (none) {
      setText(this.span, "");
      return;
    }
    if (!this.width) {
      return; // hidden: drawn when shown
    }
    const first = samples[0];
    const now = samples[samples.length - 1];
    const t0 = Math.max(0, first.time - SAMPLE_US);
    const t1 = Math.max(now.time, t0 + MIN_SPAN_US);
    setText(this.span, this.tr("rates.span", { time: formatTime(now.time) }));
    const axis = { width: this.width, height: HEIGHT, t0, t1, during: this.tr("rates.during", { from: formatTime(t0), to: formatTime(now.time) }) };
    const charts = [this.rates(samples, axis), this.depth(samples, axis), this.memory(samples, axis, snap), this.schedulers(samples, axis)];
    // the same room for every chart's value labels lines their time axes up
    const left = Math.max(...charts.map(([, opts]) => plotLeft(opts)));
    for (const [key, opts, legend] of charts) {
      this.draw(key, { ...opts, left }, legend);
    }
  }

  // Each chart below is [key, lineChart options, legend].

  rates(samples, axis) {
    const now = samples[samples.length - 1];
    const rates = RATES.map((r) => ({ ...r, points: column(samples, r.key), now: now[r.key] }));
    const peak = Math.max(...rates.map((r) => Math.max(...r.points.map((p) => p[1]))));
    const latest = rates.map((r) => `${r.label.toLowerCase()} ${rate(r.now)}`).join(this.tr("list.comma"));
    return [
      "rates",
      { ...axis, ...niceTop(Math.max(peak, 4), 4), formatY: formatCount, series: rates, label: this.tr("rates.ratesLabel", { during: axis.during, latest, peak: rate(peak) }) },
      rates.map((r) => [r.key, r.label, rate(r.now)]),
    ];
  }

  depth(samples, axis) {
    const now = samples[samples.length - 1];
    const depth = column(samples, "depth");
    const deepest = Math.max(...depth.map((p) => p[1]));
    return [
      "depth",
      { ...axis, ...niceTop(Math.max(deepest, 4), 4), formatY: formatCount, series: [{ key: "depth", points: depth, area: true }], label: this.tr("rates.depthLabel", { during: axis.during, now: now.depth, most: deepest }) },
      [["depth", this.tr("rates.readyUnacked"), String(now.depth)]],
    ];
  }

  /** memory charts memory against the snapshot's watermark, shades where
   * it is over and badges the chart with the snapshot's alarms. */
  memory(samples, axis, snap) {
    const now = samples[samples.length - 1];
    const memory = column(samples, "memory");
    const wm = snap.watermark;
    const most = Math.max(...memory.map((p) => p[1]));
    const least = Math.min(...memory.map((p) => p[1]));
    const bands = wm > 0 ? above(memory, wm) : [];
    const alarms = alarmsOf(snap);
    const c = this.charts.memory;
    c.badge.hidden = alarms.length === 0;
    setText(c.badge, alarms.length ? this.tr("rates.alarm", { alarms: alarms.join(this.tr("list.comma")) }) : "");
    c.el.classList.toggle("alarm", alarms.length > 0);
    // in a cluster, the samples are the first node's memory
    const of = snap.nodes && snap.nodes.length > 1 ? snap.nodes[0].name : "";
    const legend = [["memory", of ? this.tr("rates.usedOn", { node: of }) : this.tr("rates.used"), formatSize(now.memory)]];
    if (wm > 0) {
      legend.push(["watermark", this.tr("rates.watermark"), formatSize(wm)]);
    }
    const over = wm > 0 ? samples.filter((x) => x.memory > wm).length : 0;
    if (over) {
      legend.push(["band", this.tr("rates.over"), this.tr("rates.overSamples", { over, n: samples.length })]);
    }
    return [
      "memory",
      {
        ...axis,
        ...byteAxis(wm > 0 ? Math.min(least, wm) : least, Math.max(most, wm)),
        series: [{ key: "memory", points: memory, area: true }],
        bands,
        rule: wm > 0 ? { value: wm, label: this.tr("rates.rule", { size: formatSize(wm) }) } : null,
        label:
          this.tr(of ? "rates.memLabelOf" : "rates.memLabel", { node: of, during: axis.during, now: formatSize(now.memory), most: formatSize(most) }) +
          (wm > 0 ? this.tr("rates.memWatermark", { size: formatSize(wm) }) : this.tr("rates.memNoWatermark")) +
          (alarms.length ? this.tr("rates.memAlarm", { alarms: alarms.join(this.tr("list.comma")) }) : this.tr("rates.memEnd")),
      },
      legend,
    ];
  }

  schedulers(samples, axis) {
    const now = samples[samples.length - 1];
    const scheds = now.scheduler.map((u, i) => ({
      key: `sched${i % SCHEDULER_COLOURS}`,
      points: samples.map((x) => [x.time, x.scheduler[i] || 0]),
      now: u,
    }));
    const latest = scheds.map((x, i) => `S${i + 1} ${percent(x.now)}`).join(this.tr("list.comma"));
    return [
      "schedulers",
      { ...axis, top: 1, step: 0.25, formatY: percent, series: scheds, label: this.tr("rates.schedLabel", { during: axis.during, latest }) },
      scheds.map((x, i) => [x.key, `S${i + 1}`, percent(x.now)]),
    ];
  }

  /** draw puts a chart and its legend ([key, name, latest value]) in place. */
  draw(key, opts, legend) {
    const c = this.charts[key];
    c.plot.replaceChildren(lineChart(opts));
    c.legend.replaceChildren(
      ...legend.map(([k, name, value]) =>
        h("li", { "data-series": k }, h(`span.swatch.s-${k}`, { "aria-hidden": "true" }), h("span.name", { text: name }), h("span.now", { text: value })),
      ),
    );
  }
}
