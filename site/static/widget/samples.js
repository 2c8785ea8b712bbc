// samples.js: the node's metrics series (engine.Sample: one every 100 ms
// of virtual time), kept by the widget and read from the engine only where
// it has changed.

/** SampleSeries is one simulation's samples, as far as the widget read them. */
export class SampleSeries {
  constructor() {
    this.id = 0;
    this.all = [];
  }

  /** update reads what the engine added since the last call. It asks again
   * from the last sample it holds: if that one is still there, only what
   * follows is new; if not (a seek back replayed the run, or the engine
   * dropped the oldest), it reads the whole series again. */
  async update(engine, id) {
    if (id !== this.id) {
      this.id = id;
      this.all = [];
    }
    const have = this.all.length;
    try {
      if (have) {
        const more = await engine.samples(id, have - 1);
        if (more.length && same(more[0], this.all[have - 1])) {
          for (let i = 1; i < more.length; i++) {
            this.all.push(more[i]);
          }
          return;
        }
      }
      this.all = await engine.samples(id, 0);
    } catch {
      this.all = [];
    }
  }

  /** upTo is the samples taken by virtual time t (µs), oldest first. */
  upTo(t) {
    const all = this.all;
    if (!all.length || all[all.length - 1].time <= t) {
      return all;
    }
    let lo = 0;
    let hi = all.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (all[mid].time <= t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return all.slice(0, lo);
  }
}

function same(a, b) {
  return (
    a.time === b.time &&
    a.publish === b.publish &&
    a.deliver === b.deliver &&
    a.ack === b.ack &&
    a.confirm === b.confirm &&
    a.depth === b.depth &&
    a.memory === b.memory
  );
}
