// Tests of widget/files-folder.js under node:test (go test ./site runs
// them): the tar reader that hands a dropped archive's files to the engine.

import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

import { untar, unzip } from "../static/widget/files-folder.js";

/** archive writes a folder whose file has a path longer than 100 bytes, as
 * RabbitMQ's queue directories under a long parent are, and tars it in
 * format. */
function archive(format) {
  const dir = mkdtempSync(join(tmpdir(), "untar-"));
  const deep = join("628WB79CIFDYO9LJI6DKMI09L", "queues", "X".repeat(60), "Y".repeat(50));
  mkdirSync(join(dir, deep), { recursive: true });
  writeFileSync(join(dir, deep, "0.qi"), Buffer.from([0xd1, 0x71, 0, 1, 2, 3]));
  writeFileSync(join(dir, "628WB79CIFDYO9LJI6DKMI09L", ".vhost"), "/");
  execFileSync("tar", [`--format=${format}`, "-C", dir, "-cf", join(dir, "a.tar"), "628WB79CIFDYO9LJI6DKMI09L"]);
  return { bytes: new Uint8Array(readFileSync(join(dir, "a.tar"))), long: `${deep}/0.qi` };
}

for (const format of ["gnu", "pax", "ustar"]) {
  test(`a ${format} archive gives every file with its whole path, and its folders`, () => {
    const { bytes, long } = archive(format);
    const files = untar(bytes);
    const byName = new Map(files);
    assert.ok(long.length > 100);
    assert.deepEqual([...(byName.get(long) || [])], [0xd1, 0x71, 0, 1, 2, 3], `no ${long} in ${[...byName.keys()]}`);
    assert.equal(new TextDecoder().decode(byName.get("628WB79CIFDYO9LJI6DKMI09L/.vhost")), "/");
    assert.ok(byName.has("628WB79CIFDYO9LJI6DKMI09L/queues/"), "folders end in /");
    assert.equal(files.filter(([p]) => !p.endsWith("/")).length, 2);
  });
}

test("a cut archive says where its header does not add up", () => {
  const { bytes } = archive("gnu");
  assert.throws(() => untar(bytes.subarray(0, 1024 + 100)), /a cut one: it ends at byte 1124, with no whole header at offset \d+ nor the end blocks/);
  // 0.qi's header, its 6 bytes cut to 3
  const size = (i) => new TextDecoder().decode(bytes.subarray(i + 124, i + 135));
  const header = bytes.findIndex((_, i) => i % 512 === 0 && bytes[i + 156] === 0x30 && size(i) === "00000000006");
  assert.ok(header > 0);
  assert.throws(() => untar(bytes.subarray(0, header + 512 + 3)), new RegExp(`the header at offset ${header} gives size "00000000006" for 3 bytes left`));
  assert.deepEqual(untar(new Uint8Array(1024)), [], "the end blocks alone are an empty archive");
});

/** zipped writes a small vhost folder and zips it with zip(1) and args. */
function zipped(args) {
  const dir = mkdtempSync(join(tmpdir(), "unzip-"));
  mkdirSync(join(dir, "V", "queues", "Q"), { recursive: true });
  writeFileSync(join(dir, "V", "queues", "Q", "0.qi"), Buffer.alloc(3000, "qi"));
  writeFileSync(join(dir, "V", ".vhost"), "/");
  execFileSync("zip", ["-q", "-r", ...args, join(dir, "a.zip"), "V"], { cwd: dir });
  return new Uint8Array(readFileSync(join(dir, "a.zip")));
}

for (const [how, args] of [
  ["deflated", []],
  ["stored", ["-0"]],
]) {
  test(`a zip archive of ${how} members gives every file, and its folders`, async () => {
    const files = await unzip(zipped(args));
    const byName = new Map(files);
    assert.deepEqual(Buffer.from(byName.get("V/queues/Q/0.qi") || []), Buffer.alloc(3000, "qi"));
    assert.equal(new TextDecoder().decode(byName.get("V/.vhost")), "/");
    assert.ok(byName.has("V/queues/"), "folders end in /");
  });
}

test("a cut or broken zip archive says where", async () => {
  const bytes = zipped([]);
  await assert.rejects(unzip(bytes.subarray(0, bytes.length - 30)), /no end of central directory/);
  const broken = bytes.slice(); // every local header's signature gone
  for (let i = 0; i + 4 <= broken.length; i++) {
    if (broken[i] === 0x50 && broken[i + 1] === 0x4b && broken[i + 2] === 3 && broken[i + 3] === 4) {
      broken[i] = 0;
    }
  }
  await assert.rejects(unzip(broken), /^Error: V\/[^:]+: no local header at offset \d+ of the zip archive$/);
});
