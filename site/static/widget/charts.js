// charts.js: small SVG line charts over virtual time, drawn the way the
// RabbitMQ management UI draws its rate charts: a light grid, values up
// the left, time along the bottom, one coloured line (or filled area) per
// series. Nothing moves: a chart is drawn again, whole, when its data
// changes.

import { s } from "./dom.js";
import { formatTick } from "./format.js";

const PAD = { right: 10, top: 8, bottom: 22 };
const CHAR_PX = 6.2; // the width of a character of the axis labels (10px monospace)

/** niceStep is the tick step, 1, 2, 2.5 or 5 times a power of ten, that
 * cuts span into about n parts. */
export function niceStep(span, n) {
  if (!(span > 0)) {
    return 1;
  }
  const raw = span / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) {
    if (raw <= m * p) {
      return m * p;
    }
  }
  return 10 * p;
}

/** niceTop is the top of a value axis that shows max, with its step. */
export function niceTop(max, n) {
  const step = niceStep(max > 0 ? max : 1, n);
  return { top: Math.max(step, Math.ceil(max / step - 1e-9) * step), step };
}

/** lineChart draws series over virtual time.
 *
 *   width, height     pixels
 *   t0, t1            the time axis, µs
 *   bottom, top       the value axis (bottom may be left out: 0)
 *   step              a grid line every step from bottom
 *   formatY(v)        a value's label
 *   series            [{key, points: [[t, v], ...], area}], drawn in order
 *   bands             [[ta, tb], ...] time spans to shade (an alarm)
 *   rule              {value, label} a dashed line across (a limit)
 *   label             what a screen reader hears for the whole chart
 *   left              the least room for the value labels, so that charts
 *                     one above another line up (see plotLeft)
 */
export function lineChart(o) {
  const w = o.width;
  const hgt = o.height;
  const bottom = o.bottom || 0;
  const ticks = valueTicks(o);
  const x0 = Math.max(o.left || 0, labelsWidth(ticks));
  const x1 = w - PAD.right;
  const y0 = hgt - PAD.bottom;
  const y1 = PAD.top;
  const span = Math.max(1, o.t1 - o.t0);
  const x = (t) => x0 + ((t - o.t0) / span) * (x1 - x0);
  const y = (v) => y0 - ((Math.max(bottom, Math.min(v, o.top)) - bottom) / (o.top - bottom)) * (y0 - y1);
  const r = (n) => Math.round(n * 10) / 10;

  const grid = s("g.grid");
  const labels = s("g.axis");
  for (const [v, label] of ticks) {
    const yy = r(y(v));
    grid.append(s("line", { x1: x0, x2: x1, y1: yy, y2: yy }));
    labels.append(s("text.y", { x: x0 - 5, y: yy, "dominant-baseline": "middle", "text-anchor": "end", text: label }));
  }
  const tstep = niceStep(span, Math.max(2, Math.floor((x1 - x0) / 80)));
  for (let t = Math.ceil(o.t0 / tstep) * tstep; t <= o.t1; t += tstep) {
    const xx = r(x(t));
    grid.append(s("line", { x1: xx, x2: xx, y1: y1, y2: y0 }));
    const anchor = xx > x1 - 16 ? "end" : "middle"; // the last label stays inside
    labels.append(s("text.x", { x: anchor === "end" ? x1 : xx, y: hgt - 6, "text-anchor": anchor, text: formatTick(t, tstep, o.t1) }));
  }

  const bands = s("g.bands");
  for (const [ta, tb] of o.bands || []) {
    const xa = r(Math.max(x0, x(ta)));
    bands.append(s("rect.band", { x: xa, y: y1, width: Math.max(1, r(Math.min(x1, x(tb)) - xa)), height: y0 - y1 }));
  }

  const lines = s("g.series");
  for (const sr of o.series) {
    const pts = thin(sr.points, x, x1 - x0);
    let d = "";
    for (const [t, v] of pts) {
      d += `${d ? "L" : "M"}${r(x(t))},${r(y(v))}`;
    }
    if (sr.area && pts.length) {
      const fill = `${d}L${r(x(pts[pts.length - 1][0]))},${y0}L${r(x(pts[0][0]))},${y0}Z`;
      lines.append(s(`path.area.s-${sr.key}`, { d: fill }));
    }
    lines.append(s(`path.line.s-${sr.key}`, { d, "data-series": sr.key }));
  }

  const parts = [grid, bands, s("line.axis-line", { x1: x0, x2: x1, y1: y0, y2: y0 }), lines, labels];
  if (o.rule && o.rule.value > 0) {
    const yy = r(y(o.rule.value));
    const tw = Math.ceil(o.rule.label.length * CHAR_PX) + 6;
    parts.push(
      s(
        "g.rule",
        null,
        s("line", { x1: x0, x2: x1, y1: yy, y2: yy }),
        s("rect", { x: x1 - 2 - tw, y: yy - 15, width: tw, height: 12, rx: 2 }),
        s("text", { x: x1 - 5, y: yy - 5, "text-anchor": "end", text: o.rule.label }),
      ),
    );
  }
  return s("svg.chart-svg", { width: w, height: hgt, viewBox: `0 0 ${w} ${hgt}`, role: "img", "aria-label": o.label }, parts);
}

/** plotLeft is where the plot of a chart with these options starts: after
 * its value labels. */
export function plotLeft(o) {
  return labelsWidth(valueTicks(o));
}

function valueTicks(o) {
  const bottom = o.bottom || 0;
  const ticks = [];
  for (let i = 0, v = bottom; v <= o.top + o.step / 1e6; v = bottom + ++i * o.step) {
    ticks.push([v, o.formatY(v)]);
  }
  return ticks;
}

function labelsWidth(ticks) {
  return Math.ceil(Math.max(...ticks.map(([, l]) => l.length)) * CHAR_PX) + 8;
}

/** thin keeps at most two points (the lowest and the highest) per pixel
 * column, so that a long run draws as fast as a short one and keeps its
 * peaks. */
function thin(points, x, width) {
  if (points.length <= 2 * width) {
    return points;
  }
  const out = [];
  let col = NaN;
  let lo = null;
  let hi = null;
  const flush = () => {
    if (lo) {
      out.push(...(lo[0] <= hi[0] ? (lo === hi ? [lo] : [lo, hi]) : [hi, lo]));
    }
  };
  for (const p of points) {
    const c = Math.floor(x(p[0]));
    if (c !== col) {
      flush();
      col = c;
      lo = hi = p;
    } else {
      if (p[1] < lo[1]) {
        lo = p;
      }
      if (p[1] > hi[1]) {
        hi = p;
      }
    }
  }
  flush();
  return out;
}
