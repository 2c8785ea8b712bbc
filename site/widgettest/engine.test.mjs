// Unit tests of the widget's engine connection (bridge-loader.js and
// connection.js) and of the worker's dispatch (engine-worker.js), under
// Node's test runner, with a fake bridge in place of warren.wasm:
// node --test site/widgettest/
import { test } from "node:test";
import assert from "node:assert/strict";

import { Engine, withOmitted } from "../static/widget/bridge-loader.js";
import { Connection, deadAfter, EngineError } from "../static/widget/connection.js";
import { annotated, goalsBudgetMs, INSPECTED_CALLS, keepLines, lastLines, maxLinesSent, runCalls, runMessage } from "../static/widget/engine-worker.js";

/** noTimer stands for setInterval: the tests call watch themselves. */
const noTimer = () => 0;

/** fakeBridge is a tiny stand-in for the `warren` object: simulations
 * that count the lines they ran; "boom" kills the Go program. */
function fakeBridge(state) {
  const sims = new Map();
  const bytes = new Map(); // what each simulation holds: "hold N" sets it
  let next = 0;
  state.told = []; // what elsewhere was told, in order, with the lines run
  return {
    ready: true,
    held: () => [...bytes.values()].reduce((a, b) => a + b, 0),
    elsewhere: (n) => (state.told.push(n), true),
    create: () => (sims.set(++next, []), next),
    exec: (id, line) => {
      if (!sims.has(id)) return { error: `exec: no simulation ${id}` };
      if (line === "boom") {
        state.dead = true;
        return undefined;
      }
      if (line === "slow") {
        state.slowRan = true;
      }
      if (line.startsWith("bad")) return JSON.stringify({ lines: [`error: unknown command "${line}"`] });
      if (line.startsWith("hold ")) bytes.set(id, Number(line.slice(5)));
      state.told.push(line);
      sims.get(id).push(line);
      return JSON.stringify({ lines: [`ran ${line}`] });
    },
    snapshot: (id) => (sims.has(id) ? JSON.stringify({ events: sims.get(id).length, furthest: sims.get(id).length }) : { error: `snapshot: no simulation ${id}` }),
    step: () => {
      throw new Error("Go program has already exited");
    },
    names: () => JSON.stringify(["queue.declare"]),
  };
}

/** fakeWorker runs runCalls on a fake bridge, answering asynchronously as
 * a worker does; every worker it makes is kept in workers. */
function fakeWorkers() {
  const workers = [];
  const start = () => {
    const state = { dead: false, terminated: false };
    const bridge = fakeBridge(state);
    const w = {
      state,
      bridge,
      onmessage: null,
      onerror: null,
      posted: [],
      terminate() {
        state.terminated = true;
      },
      postMessage(m) {
        w.posted.push(m);
        // a worker answers in order: a held "slow" call holds the rest
        const held = m.type === "call" && m.calls.some((c) => c[2] === "slow");
        const prev = w.queue || Promise.resolve();
        w.queue = prev.then(() => (held ? new Promise((r) => (w.release = r)) : new Promise((r) => setTimeout(r, 0)))).then(() => {
          if (state.terminated) return;
          if (m.type === "load") {
            w.onmessage({ data: { type: "loaded", names: ["queue.declare"], usages: { "queue.declare": { name: "queue.declare" } }, module: "compiled" } });
          } else if (m.type === "call") {
            // as engine-worker.js does: a batch the Go program died in has no answer
            const { results, held } = runMessage(bridge, m, () => state.dead, () => 0);
            if (state.dead) w.onmessage({ data: { type: "dead", why: "fatal error: runtime: out of memory" } });
            else w.onmessage({ data: { type: "answer", id: m.id, results, held } });
          }
        });
      },
    };
    workers.push(w);
    return w;
  };
  return { workers, start };
}

test("runCalls parses JSON answers, turns {error} and exceptions into errors, and refuses unknown names", () => {
  const b = fakeBridge({ dead: false });
  const r = runCalls(b, [["create", "{}"], ["exec", 1, "queue.declare queue=q"], ["exec", 9, "x"], ["step", 1, 1], ["nope"], ["ready"], "junk"], () => false, () => 0);
  assert.deepEqual(r[0], { value: 1, ms: 0 });
  assert.deepEqual(r[1], { value: { lines: ["ran queue.declare queue=q"] }, ms: 0 });
  assert.deepEqual(r[2], { error: "exec: no simulation 9", ms: 0 });
  assert.deepEqual(r[3], { error: "step: Go program has already exited", ms: 0 });
  assert.match(r[4].error, /no engine function "nope"/);
  assert.match(r[5].error, /no engine function "ready"/);
  assert.match(r[6].error, /no engine function/);
});

test("runCalls stops calling once the Go program has exited", () => {
  const state = { dead: false };
  const b = fakeBridge(state);
  const r = runCalls(b, [["create"], ["exec", 1, "boom"], ["exec", 1, "a"]], () => state.dead, () => 0);
  assert.equal(r[1].error, "the engine has stopped");
  assert.equal(r[2].error, "the engine has stopped");
});

test("runCalls asks exec for no more lines than cross to the page", () => {
  const seen = [];
  const b = { exec: (...args) => (seen.push(args), JSON.stringify({ lines: ["x"], omitted: 5 })) };
  const r = runCalls(b, [["exec", 1, "a"], ["exec", 1, "b", 3]], () => false, () => 0);
  assert.deepEqual(seen, [[1, "a", maxLinesSent], [1, "b", 3]]);
  assert.deepEqual(r[0].value, { lines: ["x"], omitted: 5 });
});

test("lastLines picks Go's fatal error out of what it printed", () => {
  assert.equal(lastLines("hello\nfatal error: runtime: out of memory\n\ngoroutine 1 [running]:\nmore\n"), "fatal error: runtime: out of memory / goroutine 1 [running]:");
  assert.equal(lastLines("a\nb\nc\n"), "b / c");
  assert.equal(lastLines(""), "");
});

test("Engine runs calls in the worker, with handles of its own", async () => {
  const f = fakeWorkers();
  const conn = new Connection(f.start, "/base/", () => 0, noTimer, 1);
  const e = new Engine(conn, await conn.loaded);
  assert.deepEqual(e.names, ["queue.declare"]);
  assert.deepEqual(e.usage("queue.declare"), { name: "queue.declare" });
  assert.equal(e.usage("nope"), null);
  assert.deepEqual(f.workers[0].posted[0], { type: "load", base: "/base/" });
  const a = await e.create({});
  const b = await e.create({});
  assert.notEqual(a, b);
  assert.deepEqual(await e.exec(a, "one"), ["ran one"]);
  assert.deepEqual(await e.exec(b, "two"), ["ran two"]);
  assert.equal((await e.snapshot(a)).events, 1);
  await assert.rejects(e.snapshot(77), (err) => err instanceof EngineError && /no simulation 77/.test(err.message) && !err.lost);
  const [x, y] = await e.all([["exec", a, "three"], ["snapshot", a]]);
  assert.deepEqual(x.lines, ["ran three"]);
  assert.equal(y.events, 2);
  assert.equal(f.workers.length, 1);
});

test("a worker's error before the engine loaded fails the load; after, it is the worker's death, and a worker no longer used is not heard", async () => {
  const f = fakeWorkers();
  const silent = () => {
    const w = f.start();
    w.postMessage = (m) => w.posted.push(m); // never loads
    return w;
  };
  let prevented = 0;
  const error = (message) => ({ message, preventDefault: () => prevented++ });
  const conn = new Connection(silent, "/", () => 1000, noTimer, 1);
  f.workers[0].onerror(error("SyntaxError in engine-worker.js"));
  await assert.rejects(conn.loaded, /SyntaxError in engine-worker.js/);
  assert.equal(prevented, 1, "the page's console is spared the error the widget says");

  const g = fakeWorkers();
  const conn2 = new Connection(g.start, "/", () => 1000, noTimer, 1);
  const e = new Engine(conn2, await conn2.loaded);
  const a = await e.create({});
  const heard = [];
  const restarted = new Promise((r) => e.onRestart((why) => (heard.push(why), r())));
  const old = g.workers[0];
  const running = e.exec(a, "slow");
  await new Promise((r) => setTimeout(r, 5));
  old.onerror(error("out of memory in the worker"));
  await assert.rejects(running, (err) => err.lost && err.culprit && /out of memory in the worker/.test(err.message));
  await restarted;
  assert.deepEqual(heard, ["out of memory in the worker"]);
  assert.ok(e.isLost(a));
  old.onerror(error("again"));
  old.onmessage({ data: { type: "dead", why: "again" } });
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(heard, ["out of memory in the worker"], "the dead worker's later events are not heard");
});

test("a worker that dies is replaced: its culprit call is marked, old handles are lost, listeners hear of it", async () => {
  const f = fakeWorkers();
  const conn = new Connection(f.start, "/", () => 1000, noTimer, 1);
  const e = new Engine(conn, await conn.loaded);
  const a = await e.create({});
  const b = await e.create({});
  await e.exec(b, "kept");
  const heard = [];
  const restarted = new Promise((r) => e.onRestart((why, gen) => (heard.push(why), r(gen))));
  const [killing, behind] = await Promise.allSettled([e.exec(a, "boom"), e.exec(b, "queued")]);
  assert.equal(killing.status, "rejected");
  assert.ok(killing.reason.lost && killing.reason.culprit && /out of memory/.test(killing.reason.message), killing.reason.message);
  assert.equal(behind.status, "rejected");
  assert.ok(behind.reason.lost && !behind.reason.culprit, behind.reason.message);
  await restarted;
  assert.deepEqual(heard, ["fatal error: runtime: out of memory"]);
  assert.equal(f.workers.length, 2);
  assert.ok(f.workers[0].state.terminated, "the dead worker is terminated");
  await assert.rejects(e.exec(b, "late"), (err) => err.lost && /lost when the engine restarted/.test(err.message));
  const c = await e.create({});
  assert.deepEqual(await e.exec(c, "fresh"), ["ran fresh"]);
  assert.equal((await e.snapshot(c)).events, 1);
});

test("an engine that keeps dying is not restarted for ever", async () => {
  const f = fakeWorkers();
  const conn = new Connection(f.start, "/", () => 5000, noTimer, 1);
  const e = new Engine(conn, await conn.loaded);
  for (let i = 0; i < 4; i++) {
    const restarted = new Promise((r) => {
      const off = e.onRestart(() => (off(), r()));
    });
    const id = await e.create({});
    await assert.rejects(e.exec(id, "boom"));
    await restarted;
  }
  const id = await e.create({});
  await assert.rejects(e.exec(id, "boom"), (err) => err.culprit);
  await assert.rejects(e.create({}), /not running \(it stopped 5 times in a minute/);
  assert.equal(f.workers.length, 5);
});

test("a worker that cannot start fails loading with why", async () => {
  const conn = new Connection(
    () => {
      throw new Error("SecurityError: no workers here");
    },
    "/",
    () => 0,
    noTimer,
  );
  await assert.rejects(conn.loaded, /cannot start the engine's worker: SecurityError/);
});

/** behindLongCall makes two simulations in one worker, a and b (b with a
 * history that cost bCost ms), runs a long call of a's and, behind it,
 * one of b's; at(ms) sets the page's clock and lets the page look. */
async function behindLongCall(bCost, beforeLong = async () => {}) {
  const f = fakeWorkers();
  let clock = 0;
  const conn = new Connection(f.start, "/", () => clock, noTimer, 1);
  const e = new Engine(conn, await conn.loaded);
  const a = await e.create({});
  const b = await e.create({}, bCost);
  await beforeLong(e, b);
  const long = e.exec(a, "slow");
  await new Promise((r) => setTimeout(r, 5));
  const behind = e.exec(b, "waiting");
  behind.catch(() => {});
  await new Promise((r) => setTimeout(r, 5));
  const at = (ms) => {
    clock = ms;
    conn.watch();
  };
  return { f, e, a, b, long, behind, at };
}

test("a long call keeps its worker; the simulations waiting behind it move to a new one", async () => {
  const heard = [];
  let restarted;
  const { f, e, a, b, long, behind, at } = await behindLongCall(undefined, async (e, b) => {
    await e.exec(b, "kept");
    restarted = new Promise((r) => e.onRestart((why) => (heard.push(why), r())));
  });
  at(1000);
  assert.equal(f.workers.length, 1, "not yet: under splitAfter");
  at(2000);
  await assert.rejects(behind, (err) => err.lost && !err.culprit);
  await restarted;
  assert.equal(heard.length, 1);
  assert.equal(f.workers.length, 2);
  assert.ok(e.isLost(b), "the simulation that waited is lost");
  assert.ok(!e.isLost(a), "the long call's simulation stays");
  assert.ok(!f.workers[0].state.terminated, "the old worker finishes the long call");
  f.workers[0].release();
  assert.deepEqual(await long, ["ran slow"]);
  assert.equal((await e.snapshot(a)).events, 1);
  const c = await e.create({});
  assert.deepEqual(await e.exec(c, "new"), ["ran new"]);
  assert.equal(f.workers[1].posted.filter((m) => m.type === "call").length, 2, "new simulations go to the new worker");
  e.destroy(a);
  assert.ok(f.workers[0].state.terminated, "a worker left with nothing is ended");
});

/** twoOnAClock is an engine on one fake worker, with two simulations, a
 * and b, and a clock that only at(ms) moves. */
async function twoOnAClock() {
  const f = fakeWorkers();
  let clock = 0;
  const conn = new Connection(f.start, "/", () => clock, noTimer, 1);
  const e = new Engine(conn, await conn.loaded);
  const a = await e.create({});
  const b = await e.create({});
  return { f, conn, e, a, b, at: (ms) => (clock = ms) };
}

test("a long call holds the worker for its own simulation's calls: nothing moves", async () => {
  const { f, conn, e, a, b, at } = await twoOnAClock();
  const long = e.exec(a, "slow");
  await new Promise((r) => setTimeout(r, 5));
  const after = e.snapshot(a); // the same simulation: it waits its turn
  await new Promise((r) => setTimeout(r, 5));
  at(60_000);
  conn.watch();
  assert.equal(f.workers.length, 1, "no worker started for a simulation's own calls");
  assert.ok(!e.isLost(a) && !e.isLost(b), "nothing lost");
  f.workers[0].release();
  await long;
  assert.equal((await after).events, 1);
});

test("what waits behind a long call moves only when replaying it costs less than the wait", async () => {
  const { f, e, b, long, behind, at } = await behindLongCall(5000); // b: a history of 5 s
  at(3000);
  assert.equal(f.workers.length, 1, "3 s of waiting is less than 5 s of replay");
  at(6000);
  await assert.rejects(behind, (err) => err.lost);
  assert.equal(f.workers.length, 2);
  assert.ok(e.isLost(b));
  f.workers[0].release();
  await long;
  await new Promise((r) => setTimeout(r, 5));
  const destroyed = f.workers[0].posted.filter((m) => m.type === "call" && m.calls.some((c) => c[0] === "destroy"));
  assert.equal(destroyed.length, 1, "the old worker forgets the simulation that moved");
  assert.deepEqual(f.workers[1].posted[0], { type: "load", base: "/", module: "compiled" }, "the next worker starts from the compiled module");
});

test("new simulations are spread over the workers, and a long call holds no simulation of another", async () => {
  const f = fakeWorkers();
  const conn = new Connection(f.start, "/", () => 0, noTimer, 2);
  const e = new Engine(conn, await conn.loaded);
  const a = await e.create({});
  const b = await e.create({});
  assert.equal(f.workers.length, 2, "the second simulation gets a worker of its own");
  assert.deepEqual(f.workers[1].posted[0], { type: "load", base: "/", module: "compiled" }, "which starts from the compiled module");
  const long = e.exec(a, "slow");
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(await e.exec(b, "beside"), ["ran beside"], "b runs while a's call holds the first worker");
  const c = await e.create({}); // both hold one: the one where nothing runs
  assert.equal(f.workers.length, 2, "no more than spread workers");
  assert.equal(f.workers[1].posted.filter((m) => m.type === "call").length, 3, "create b, beside, create c in the second worker");
  f.workers[0].release();
  await long;
  const d = await e.create({}); // a's worker holds the fewest now
  assert.deepEqual(await e.exec(d, "fourth"), ["ran fourth"]);
  assert.equal(f.workers[0].posted.filter((m) => m.type === "call").length, 4, "create a, slow, create d, fourth in the first worker");
  assert.deepEqual(await e.exec(c, "third"), ["ran third"]);
  assert.equal(await e.call("wasmMemory"), 0, "the largest of the workers' memories (none in the fake)");
});

test("the goal checks of one batch share one time budget: each is told what is left", () => {
  const asked = [];
  const b = { expect: (id, line, ms) => (asked.push(ms), JSON.stringify({ met: false, text: line })) };
  let now = 0;
  const clock = () => (now += 6000); // read before and after each call: 6 s each
  const calls = [1, 2, 3].map((i) => ["expect", 1, `expect queue=q${i} messages=1`]);
  const r = runCalls(b, calls, () => false, clock);
  assert.equal(goalsBudgetMs, 10_000);
  assert.deepEqual(asked, [10_000, 4_000, -1], "the second gets what the first left, the third nothing");
  assert.deepEqual(r.map((x) => x.ms), [6000, 6000, 6000]);
  asked.length = 0;
  runCalls(b, [["expect", 1, "expect queue=q messages=1", 50]], () => false, () => 0);
  assert.deepEqual(asked, [50], "a budget given is kept");
});

test("runMessage tells the engine what the page's other workers hold before the calls, and says what it holds after", () => {
  const state = {};
  const b = fakeBridge(state);
  const id = b.create();
  const r = runMessage(b, { calls: [["exec", id, "hold 7"]], elsewhere: 400 << 20 }, () => false, () => 0);
  assert.deepEqual(state.told, [400 << 20, "hold 7"], "elsewhere first, then the calls");
  assert.equal(r.held, 7);
  assert.deepEqual(r.results, [{ value: { lines: ["ran hold 7"] }, ms: 0 }]);
  const old = runMessage({ exec: b.exec }, { calls: [["exec", id, "x"]], elsewhere: 1 }, () => false, () => 0);
  assert.equal(old.held, undefined, "an engine without held says nothing");
  state.dead = true;
  assert.equal(runMessage(b, { calls: [], elsewhere: 5 }, () => true, () => 0).held, undefined, "nor a dead one");
  assert.equal(state.told.at(-1), "x", "and a dead one is told nothing");
});

test("the page's simulations share one memory budget: each worker is told what the others hold", async () => {
  const f = fakeWorkers();
  const conn = new Connection(f.start, "/", () => 0, noTimer, 2);
  const e = new Engine(conn, await conn.loaded);
  const a = await e.create({});
  const b = await e.create({});
  assert.equal(f.workers.length, 2, "a and b are in workers of their own");
  const calls = (w) => w.posted.filter((m) => m.type === "call");
  await e.exec(a, "hold 300000000");
  assert.equal(calls(f.workers[0]).at(-1).elsewhere, 0, "nothing is held elsewhere yet");
  await e.exec(b, "beside");
  assert.equal(calls(f.workers[1]).at(-1).elsewhere, 300000000, "b's worker hears what a holds");
  assert.deepEqual(f.workers[1].state.told.slice(-2), [300000000, "beside"], "before b's line runs");
  await e.exec(b, "hold 100");
  await e.exec(a, "again");
  assert.equal(calls(f.workers[0]).at(-1).elsewhere, 100, "a's worker hears what b holds, not its own");
  await assert.rejects(e.exec(b, "boom"));
  await e.exec(a, "after");
  assert.equal(calls(f.workers[0]).at(-1).elsewhere, 0, "a worker that died holds nothing");
});

test("an answer of millions of lines crosses to the page as its first lines and a count", () => {
  const many = { lines: Array.from({ length: maxLinesSent + 5000 }, (_, i) => `line ${i}`) };
  const sent = keepLines(many);
  assert.equal(sent.lines.length, maxLinesSent);
  assert.equal(sent.omitted, 5000);
  const lines = withOmitted(structuredClone(sent));
  assert.equal(lines.length, maxLinesSent + 5000);
  assert.equal(lines[0], "line 0");
  assert.equal(lines[maxLinesSent], undefined);
  assert.deepEqual(keepLines({ lines: ["a"] }), { lines: ["a"] });
  assert.deepEqual(withOmitted({ lines: ["a"] }), ["a"]);
  // what a reply of RabbitMQ's means comes beside its line, as a sentence does
  const why = { text: "rabbitmqctl: no policy has that name.", key: "con.ctl.noParameter", args: [] };
  const refused = withOmitted({ lines: ["error: Parameter does not exist"], explain: [[0, why]] });
  assert.deepEqual(refused, ["error: Parameter does not exist"]);
  assert.deepEqual(refused.explain.get(0), why);
  assert.equal(withOmitted({ lines: ["a"] }).explain.size, 0);
});

test("fileBytes answers with the file read field by field by inspect.wasm, or the error either gave", () => {
  assert.ok(INSPECTED_CALLS.has("fileBytes") && INSPECTED_CALLS.has("folderBytes") && INSPECTED_CALLS.has("prepareBytes"));
  const seen = [];
  const annotate = (f) => {
    seen.push(f);
    return f.path === "bad" ? { error: "annotate: no" } : JSON.stringify({ annotation: { read: f.path.length } });
  };
  const fileBytes = (id, path) => (path === "gone" ? { error: "no file gone on the node's disk" } : `{"path":"${path}"}`);
  const w = { fileBytes: annotated(fileBytes, annotate) };
  const [ok, gone, bad] = runCalls(w, [["fileBytes", 1, "0.qi"], ["fileBytes", 1, "gone"], ["fileBytes", 1, "bad"]], () => false);
  assert.deepEqual(ok.value, { annotation: { read: 4 } });
  assert.equal(gone.error, "no file gone on the node's disk");
  assert.equal(bad.error, "annotate: no");
  assert.deepEqual(seen, [{ path: "0.qi" }, { path: "bad" }], "what warren.wasm said is what inspect.wasm reads, an error never");
});

test("a worker that holds one call past deadAfter is taken for dead: ended, its call the culprit, the others rebuilt in a new worker", async () => {
  const { f, conn, e, a, b, at } = await twoOnAClock();
  const heard = [];
  const restarted = new Promise((r) => e.onRestart((why) => (heard.push(why), r())));
  const stuck = e.exec(a, "slow");
  await new Promise((r) => setTimeout(r, 5));
  at(deadAfter - 1);
  conn.watch();
  assert.ok(!f.workers[0].state.terminated, "not yet: under deadAfter");
  at(deadAfter);
  conn.watch();
  await assert.rejects(stuck, (err) => err.lost && err.culprit && err.message === `the engine gave no answer in ${deadAfter / 1000} s while running this`);
  await restarted;
  assert.deepEqual(heard, [`no answer in ${deadAfter / 1000} s`]);
  assert.ok(f.workers[0].state.terminated, "the stuck worker is ended");
  assert.ok(e.isLost(a) && e.isLost(b), "its simulations are lost, to be rebuilt");
  const c = await e.create({});
  assert.deepEqual(await e.exec(c, "fresh"), ["ran fresh"]);
  assert.equal(f.workers.length, 2, "a new worker runs what comes next");
});
