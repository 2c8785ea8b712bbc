// Tests of widget/share.js under node:test (go test ./site runs them):
// share links, their bounds, and where a link may point.

import { test } from "node:test";
import assert from "node:assert/strict";
import { createDeflateRaw } from "node:zlib";

import { LinkError, MAX_SCRIPT_BYTES, ShareState, shareTarget } from "../static/widget/share.js";

/** deflateRaw compresses `size` bytes of `byte`, a megabyte at a time, to
 * base64url: a link made by hand, as an attacker would. */
async function linkOf(byte, size) {
  const z = createDeflateRaw({ level: 9 });
  const out = [];
  z.on("data", (c) => out.push(c));
  const done = new Promise((resolve, reject) => (z.on("end", resolve), z.on("error", reject)));
  const mb = Buffer.alloc(1 << 20, byte);
  for (let left = size; left > 0; left -= mb.length) {
    if (!z.write(left >= mb.length ? mb : mb.subarray(0, left))) {
      await new Promise((r) => z.once("drain", r));
    }
  }
  z.end();
  await done;
  return Buffer.concat(out).toString("base64url");
}

/** countingDecompression replaces DecompressionStream with one that counts
 * the compressed bytes it is given; it returns the counter. */
function countingDecompression(t) {
  const Real = globalThis.DecompressionStream;
  const seen = { in: 0 };
  globalThis.DecompressionStream = class {
    constructor(format) {
      const real = new Real(format);
      this.readable = real.readable;
      const w = real.writable.getWriter();
      this.writable = new WritableStream({
        write: (chunk) => ((seen.in += chunk.length), w.write(chunk)),
        close: () => w.close(),
        abort: (why) => w.abort(why),
      });
    }
  };
  t.after(() => (globalThis.DecompressionStream = Real));
  return seen;
}

test("a link carries the script, the event and the view", async () => {
  const script = "queue.declare queue=q\nbasic.publish key=q body=é{i} count=3";
  const hash = await new ShareState(script, 42, "files").encode();
  assert.match(hash, /^#w=[A-Za-z0-9_-]+&e=42&v=files$/);
  const back = await ShareState.decode(hash);
  assert.equal(back.script, script);
  assert.equal(back.event, 42);
  assert.equal(back.view, "files");
  assert.equal(await ShareState.decode("#x=1"), null);
});

test("300 MB of blank lines in a 300 kB link are refused, not inflated", async (t) => {
  const data = await linkOf(0x0a, 300 * 1000 * 1000);
  assert.ok(data.length > 250_000 && data.length < 450_000, `the link's data is ${data.length} characters`);
  const seen = countingDecompression(t);
  await assert.rejects(ShareState.decode(`#w=${data}&e=1`), (e) => {
    assert.ok(e instanceof LinkError, `${e}`);
    assert.match(e.message, /unpacks to more than 1,048,576 bytes, the most a link may carry/);
    return true;
  });
  // It stopped after about a megabyte of output: of the link's 290 kB, no
  // more went into the decompressor than its own buffer holds (16 kB in
  // Node), not all of it.
  const compressed = Buffer.from(data, "base64url").length;
  assert.ok(seen.in <= 32 * 1024, `the decompressor was given ${seen.in} of ${compressed} bytes`);
});

test("a script up to the bound goes through; one byte more does not", async () => {
  const line = "basic.publish key=q body=x\n";
  const fits = line.repeat(Math.floor(MAX_SCRIPT_BYTES / line.length));
  const back = await ShareState.decode(await new ShareState(fits, null, null).encode());
  assert.equal(back.script, fits);
  const over = "#".repeat(MAX_SCRIPT_BYTES + 1);
  await assert.rejects(new ShareState(over, null, null).encode(), LinkError);
  const data = await linkOf(0x23, MAX_SCRIPT_BYTES + 1);
  await assert.rejects(ShareState.decode(`#w=${data}`), /unpacks to more than/);
  const exact = await linkOf(0x23, MAX_SCRIPT_BYTES);
  assert.equal((await ShareState.decode(`#w=${exact}`)).script.length, MAX_SCRIPT_BYTES);
});

test("a damaged link says what is wrong", async () => {
  await assert.rejects(ShareState.decode("#w=%%%not-base64!"), /characters a link's data never has/);
  await assert.rejects(ShareState.decode("#w=AAAA-garbage_data"), /cannot be read/);
  const ok = (await new ShareState("queue.declare queue=q", null, null).encode()).slice(1);
  await assert.rejects(ShareState.decode(`#${ok}&e=x`), /e=x is not an event number/);
  await assert.rejects(ShareState.decode(`#${ok}&v=nope`), /v=nope is not a view/);
});

test("share-to names an http or https page, nothing else", () => {
  const base = "https://docs.example/guide/";
  assert.equal(shareTarget(null, base).href, "https://docs.example/guide/playground/");
  assert.equal(shareTarget("/try/", base).href, "https://docs.example/try/");
  assert.equal(shareTarget("http://warren.example/playground/", base).href, "http://warren.example/playground/");
  for (const bad of ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>alert(1)</script>", "ftp://x/", "blob:https://docs.example/1"]) {
    assert.throws(() => shareTarget(bad, base), (e) => e instanceof LinkError && /not an http or https address/.test(e.message), bad);
  }
  assert.throws(() => shareTarget("http://[bad", base), /is not an address/);
});
