// format.js: how the widget writes times, sizes and numbers.

/** formatTime writes virtual µs as µs, ms or s. */
export function formatTime(us) {
  if (us < 1000) {
    return `${us} µs`;
  }
  if (us < 1_000_000) {
    return `${(us / 1000).toFixed(3)} ms`;
  }
  return `${(us / 1_000_000).toFixed(3)} s`;
}

/** formatTick writes a time on an axis that reaches top µs with ticks
 * step µs apart, with no more digits than the step needs. */
export function formatTick(us, step, top) {
  if (us === 0) {
    return "0";
  }
  const [unit, div] = top >= 1_000_000 ? ["s", 1_000_000] : top >= 1000 ? ["ms", 1000] : ["µs", 1];
  return `${(us / div).toFixed(decimals(step / div))} ${unit}`;
}

/** decimals is how many digits after the point write x exactly (at most 3). */
export function decimals(x) {
  let d = 0;
  while (d < 3 && Math.abs(Math.round(x * 10 ** d) - x * 10 ** d) > 1e-6) {
    d++;
  }
  return d;
}

/** formatBytes writes a size in B, KiB, MiB, ... */
export function formatBytes(n) {
  if (n < 1024) {
    return `${n} B`;
  }
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let u = -1;
  do {
    n /= 1024;
    u++;
  } while (n >= 1024 && u < units.length - 1);
  return `${n.toFixed(n < 10 ? 1 : 0)} ${units[u]}`;
}

/** formatSize writes a size to three significant digits: 20.5 MiB. */
export function formatSize(n) {
  const units = ["B", "KiB", "MiB", "GiB", "TiB"];
  let u = 0;
  while (n >= 1024 && u < units.length - 1) {
    n /= 1024;
    u++;
  }
  return `${u === 0 ? n : Number(n.toPrecision(3))} ${units[u]}`;
}

/** formatCount writes a number short: 0.5, 12, 950, 1.2k, 34k, 1.5M. */
export function formatCount(n) {
  const a = Math.abs(n);
  if (a < 10) {
    return String(Math.round(n * 10) / 10);
  }
  if (a < 999.5) {
    return String(Math.round(n));
  }
  const units = ["k", "M", "G", "T"];
  let u = 0;
  let v = n / 1000;
  while (Math.abs(v) >= 999.5 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${Math.abs(v) < 9.95 ? v.toFixed(1).replace(/\.0$/, "") : Math.round(v)}${units[u]}`;
}

/** pct is part of whole in percent, 0..100. */
export function pct(part, whole) {
  if (!(whole > 0)) {
    return 0;
  }
  return Math.max(0, Math.min(100, (100 * part) / whole));
}

/** kindHue is a message kind's colour: a hue picked from its name, so that
 * the same kind looks the same everywhere. */
export function kindHue(kind) {
  let x = 0;
  for (const c of kind) {
    x = (x * 31 + c.charCodeAt(0)) % 360;
  }
  return x;
}

/** procName is a process's name in a snapshot. */
export function procName(snap, pid) {
  const p = snap.processes.find((p) => p.pid === pid);
  return p ? p.name : `pid ${pid}`;
}

/** nodesOf lists the snapshot's nodes with their memory and alarms: every
 * node of a cluster, or the one node (named "node") otherwise. */
export function nodesOf(snap) {
  if (snap.nodes && snap.nodes.length) {
    return snap.nodes;
  }
  return [{ name: "node", memory: snap.memory, watermark: snap.watermark, alarms: snap.alarms || [] }];
}

/** alarmsOf describes the alarms in force: "memory", or in a cluster
 * "memory on rabbit-2@localhost". An alarm on any node blocks publishers
 * on every node. */
export function alarmsOf(snap) {
  const nodes = nodesOf(snap);
  const out = [];
  for (const n of nodes) {
    for (const a of n.alarms || []) {
      out.push(nodes.length > 1 ? `${a} on ${n.name}` : a);
    }
  }
  return out;
}
