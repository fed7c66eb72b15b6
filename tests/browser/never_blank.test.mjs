// The page never blanks, whatever link or config it is handed: over a hundred random and
// mutated link fragments (random bytes, valid links corrupted / truncated / spliced, other
// versions, oversized, links of mutated scenarios: wrong types, out-of-range and huge values,
// unknown keys, deep nesting) and pasted config.json texts. After each, the page shows either
// a report (no message) or a visible "This link could not be opened (...)" message with the
// default scenario -- never "The playground stopped", never a page error -- and the canvas
// still shows the playground (pixels checked as the other browser tests do). The README's
// bad-input rows that can arrive as links are checked word for word. The generator is seeded
// (TRNSIM_BLANK_SEED, printed) so a failure can be replayed; TRNSIM_BLANK_COUNT sets how many
// fragments (default 120). The canvas is checked after every other fragment (a screenshot
// costs more than opening a link) and after every README row and pasted config.
import fs from "node:fs";
import path from "node:path";
import {
  SOURCE_DIR, check, cli, clickItem, exampleStems, finish, frames, inkOf, itemRect, openPlayground, screenshot, withPage,
} from "./lib.mjs";

const seed = Number(process.env.TRNSIM_BLANK_SEED || 12);
const count = Number(process.env.TRNSIM_BLANK_COUNT || 120);
console.log(`# seed ${seed}, ${count} fragments`);

// mulberry32: a small seeded generator, so every run (and a failing one) is repeatable.
let state = seed >>> 0;
const rand = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (a) => a[Math.floor(rand() * a.length)];
const int = (n) => Math.floor(rand() * n);

// A minimal MessagePack encoder writing the canonical forms core/link writes (nlohmann's
// to_msgpack: the shortest integer, string, array and map headers, float32 when the value
// fits one exactly), enough to make links of any JSON, valid scenario or not, as an
// attacker would.
function msgpack(v, out = []) {
  const u8 = (...b) => out.push(...b);
  const be = (x, n) => { for (let i = n - 1; i >= 0; i--) u8(Number((BigInt(x) >> BigInt(8 * i)) & 255n)); };
  const header = (n, fix, fixMax, c16, c32, c8) => {
    if (n <= fixMax) u8(fix | n);
    else if (c8 !== undefined && n < 256) { u8(c8); be(n, 1); }
    else if (n < 65536) { u8(c16); be(n, 2); }
    else { u8(c32); be(n, 4); }
  };
  if (v === null || v === undefined) u8(0xc0);
  else if (v === true || v === false) u8(v ? 0xc3 : 0xc2);
  else if (typeof v === "number" && Number.isSafeInteger(v)) {
    if (v >= 0) {
      if (v < 128) u8(v);
      else if (v < 2 ** 8) { u8(0xcc); be(v, 1); }
      else if (v < 2 ** 16) { u8(0xcd); be(v, 2); }
      else if (v < 2 ** 32) { u8(0xce); be(v, 4); }
      else { u8(0xcf); be(v, 8); }
    } else {
      const two = (x, n) => be(BigInt.asUintN(8 * n, BigInt(x)), n);
      if (v >= -32) u8(v & 0xff);
      else if (v >= -(2 ** 7)) { u8(0xd0); two(v, 1); }
      else if (v >= -(2 ** 15)) { u8(0xd1); two(v, 2); }
      else if (v >= -(2 ** 31)) { u8(0xd2); two(v, 4); }
      else { u8(0xd3); two(v, 8); }
    }
  } else if (typeof v === "number") {
    const b = new DataView(new ArrayBuffer(8));
    if (Math.fround(v) === v || Number.isNaN(v)) {
      b.setFloat32(0, v);
      u8(0xca);
      for (let i = 0; i < 4; i++) u8(b.getUint8(i));
    } else {
      b.setFloat64(0, v);
      u8(0xcb);
      for (let i = 0; i < 8; i++) u8(b.getUint8(i));
    }
  } else if (typeof v === "string") {
    const s = Buffer.from(v, "utf8");
    header(s.length, 0xa0, 31, 0xda, 0xdb, 0xd9);
    for (const c of s) u8(c);
  } else if (Array.isArray(v)) {
    header(v.length, 0x90, 15, 0xdc, 0xdd);
    for (const e of v) msgpack(e, out);
  } else {
    const keys = Object.keys(v);
    header(keys.length, 0x80, 15, 0xde, 0xdf);
    for (const k of keys) { msgpack(k, out); msgpack(v[k], out); }
  }
  return out;
}
const b64url = (bytes) => Buffer.from(bytes).toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const linkOf = (value) => "#s=1." + b64url(msgpack(value));

const stems = exampleStems();
const links = stems.map((s) => cli("link", "encode", `examples/${s}.json`).trim()).map((l) => l.slice(l.indexOf("#")));
const scenarios = links.map((l) => JSON.parse(cli("link", "decode", l)));
const defaultLink = cli("link", "encode", "examples/default.json").trim();
const defaultScenario = cli("link", "decode", defaultLink);
const b64chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Values a mutated field may get: wrong types, edges, huge and deep values.
const nasty = () => pick([
  0, -1, 1.5, 1e300, -1e300, 2 ** 31 - 1, 1e12, "", "x".repeat(1000), "trn3-gen2-ultracluster:1000000000",
  "trn3-gen2-ultracluster:694444", null, true, [], {}, [1, 2, 3], { a: 1 }, JSON.parse("[".repeat(80) + "]".repeat(80)),
  "../../etc/passwd", "gpt-oss-120b", "mxfp4", "training",
]);

function mutateScenario(s) {
  const v = structuredClone(s);
  const paths = [];
  const walk = (o, p) => {
    if (o && typeof o === "object" && !Array.isArray(o)) for (const k of Object.keys(o)) { paths.push([...p, k]); walk(o[k], [...p, k]); }
  };
  walk(v, []);
  for (let n = 1 + int(3); n > 0; n--) {
    const p = pick(paths);
    let o = v;
    for (const k of p.slice(0, -1)) o = o?.[k];
    if (!o || typeof o !== "object") continue;
    const key = p[p.length - 1];
    const how = int(4);
    if (how === 0) delete o[key];
    else if (how === 1) o[key + pick(["", "s", "_x"]) + "z"] = o[key];
    else o[key] = nasty();
  }
  return v;
}

function mutateLink(l) {
  const body = l.slice(5);
  switch (int(7)) {
    case 0: return "#s=1." + body.slice(0, int(body.length));                                       // truncated
    case 1: { const i = int(body.length); return "#s=1." + body.slice(0, i) + pick([...b64chars]) + body.slice(i + 1); }  // one char
    case 2: { let b = [...body]; for (let k = 0; k < 1 + int(8); k++) b[int(b.length)] = pick([...b64chars]); return "#s=1." + b.join(""); }
    case 3: { const i = int(body.length); return "#s=1." + body.slice(0, i) + body.slice(i + 1 + int(20)); }  // deleted run
    case 4: return "#s=1." + body + body.slice(int(body.length));                                   // extra bytes
    case 5: return "#s=" + pick(["0", "2", "7", "10", "1x", ""]) + "." + body;                       // other versions
    default: { const i = int(body.length); return "#s=1." + body.slice(0, i) + pick(["%", "=", "#", "+", "/", " ", "é"]) + body.slice(i); }
  }
}

function randomFragment() {
  switch (int(10)) {
    case 0: return "#s=1." + Array.from({ length: int(400) }, () => pick([...b64chars])).join("");    // random data
    case 1: return "#" + Array.from({ length: int(60) }, () => String.fromCharCode(33 + int(90))).join("");  // not a link
    case 2: return "#s=1." + b64url(Array.from({ length: int(300) }, () => int(256)));                // random bytes
    case 3: case 4: case 5: return linkOf(mutateScenario(pick(scenarios)));                         // mutated scenario
    default: return mutateLink(pick(links));                                                        // corrupted link
  }
}

const fragments = [];
for (let i = 0; i < count; i++) fragments.push(randomFragment());
fragments.push("#s=1." + "A".repeat(300 * 1024), "#s=1." + "A".repeat(1 << 20));                // oversized
fragments.push("#s=1." + b64url([0x81, 0xa1, 0x61, ...Array(190000).fill(0x91), 0xc0]));           // 190000 levels deep
fragments.push(linkOf({ system: "trn3-gen2-ultracluster:694444", compare_system: "trn2-ultracluster:9999" }));

// The README's bad-input rows that arrive as links: the page's message, word for word.
const readme = fs.readFileSync(path.join(SOURCE_DIR, "README.md"), "utf8");
const rows = readme.split("<!-- bad input: begin -->")[1].split("<!-- bad input: end -->")[0].trim().split("\n").slice(2)
  .map((r) => r.replace(/^\|\s*|\s*\|$/g, "").split(/\s+(?<!\\)\|\s+/).map((c) => c.replace(/\\\|/g, "|")));
const readmeLinks = [];
for (const [what, tryIt, , , browser] of rows) {
  const expected = /`(This link could not be opened \(.*\)\. Showing the default scenario\.)`/.exec(browser);
  const sameAsCli = /the same message in `This link could not be opened/.test(browser);
  if (!expected && !sameAsCli) continue;
  const file = /^`trnsim run (tests\/\S+\.json)`$/.exec(tryIt);
  const literal = /^`trnsim link decode '([^']*)'`$/.exec(tryIt);
  let fragment;
  if (file) fragment = linkOf(JSON.parse(fs.readFileSync(path.join(SOURCE_DIR, file[1]), "utf8")));
  else if (literal) fragment = literal[1].slice(literal[1].indexOf("#"));
  else if (/nested too deep/.test(what)) fragment = linkOf(JSON.parse("[".repeat(100) + "]".repeat(100)));
  else if (/1 MB link/.test(what)) fragment = "#s=1." + "A".repeat(1 << 20);
  else if (/unknown system/.test(what)) fragment = linkOf({ system: "trn9-ultraserver" });
  else continue;
  const cliMessage = /`trnsim \w+: error: (.*)`$/.exec(rows.find((r) => r[0] === what)[2])[1];
  readmeLinks.push({ what, fragment, message: expected ? expected[1] : `This link could not be opened (${cliMessage}). Showing the default scenario.` });
}
check(readmeLinks.length >= 10, `the README's bad-input table has link rows to check (${readmeLinks.length})`);

await withPage(async ({ page, base, consoleErrors }) => {
  await openPlayground(page, base);
  const canvas = await page.locator("#canvas").boundingBox();
  const clip = { x: canvas.x, y: canvas.y, width: Math.min(canvas.width, 900), height: Math.min(canvas.height, 560) };
  const inkNow = async () => inkOf(page, await page.screenshot({ clip }));

  // Opens a fragment the way a person does (the address changes: hashchange), then reads
  // the outcome. Returns {message, ok, reason}.
  let last = "";
  const open = async (frag) => {
    try {
      return await openUnchecked(frag);
    } catch (e) {  // the module threw into JavaScript (an exception escaped the core)
      return { message: String(e.message || e).slice(0, 200), ok: false, reason: "the page threw" };
    }
  };
  const openUnchecked = async (frag) => {
    if (frag === last) frag += "A";  // hashchange needs a different address
    last = frag;
    await page.evaluate((f) => { location.hash = f; }, frag);
    await frames(page, 3);
    const message = await page.evaluate(() => window.trnsim.message());
    const visible = await page.locator("#message").isVisible();
    const text = await page.locator("#message").textContent();
    if (message === "") {
      const report = await page.evaluate(() => window.trnsim.report());
      try { JSON.parse(report); } catch { return { message, ok: false, reason: "no message and no report" }; }
      return { message, ok: !visible || text === "", reason: "a report with a stale message" };
    }
    if (!/^This link could not be opened \(.*\)\. Showing the default scenario\.$/s.test(message))
      return { message, ok: false, reason: "an unexpected message" };
    if (!visible || text !== message) return { message, ok: false, reason: "the message is not visible" };
    const scenario = await page.evaluate(() => window.trnsim.scenario());
    return { message, ok: scenario === defaultScenario, reason: "not the default scenario after a bad link" };
  };

  let reports = 0, messages = 0, bad = 0, blank = 0, minInk = 1;
  const started = Date.now();
  for (let i = 0; i < fragments.length; i++) {
    if (process.env.TRNSIM_BLANK_TRACE) fs.appendFileSync(process.env.TRNSIM_BLANK_TRACE, fragments[i] + "\n");
    const r = await open(fragments[i]);
    if (r.message) messages++; else reports++;
    if (!r.ok) {
      bad++;
      check(false, `fragment ${i} (${fragments[i].slice(0, 80)}...): ${r.reason}: "${r.message.slice(0, 160)}"`);
    }
    if (i % 2 && i < count) continue;
    const ink = await inkNow();
    minInk = Math.min(minInk, ink);
    if (ink < 0.05) {
      blank++;
      await screenshot(page, `never-blank-${i}`);
      check(false, `fragment ${i} (${fragments[i].slice(0, 80)}...) leaves the canvas blank (${(ink * 100).toFixed(1)}% ink)`);
    }
  }
  console.log(`# ${fragments.length} fragments in ${((Date.now() - started) / 1000).toFixed(1)} s: ${reports} reports, ${messages} messages; least ink ${(minInk * 100).toFixed(1)}%`);
  check(bad === 0, `every fragment shows a report or a visible message with the default scenario (${bad} did not)`);
  check(blank === 0, `the canvas is never blank (least ink ${(minInk * 100).toFixed(1)}%)`);
  check(reports >= 3 && messages >= 100, `both outcomes occur (${reports} reports, ${messages} messages)`);

  for (const row of readmeLinks) {
    const r = await open(row.fragment);
    check(r.ok && r.message === row.message, `README row '${row.what}': the page says "${r.message.slice(0, 200)}"`);
    const ink = await inkNow();
    if (ink < 0.05) check(false, `README row '${row.what}' leaves the canvas blank`);
  }

  // Pasted config.json texts: mutated bundled configs and broken JSON. Each either becomes
  // the model, or is explained (the panel's Revert) -- and the page keeps drawing.
  await page.evaluate(() => { location.hash = ""; });
  await openPlayground(page, base + defaultLink.slice(defaultLink.indexOf("#")));
  await clickItem(page, "paste-config-open");
  const models = fs.readdirSync(path.join(SOURCE_DIR, "examples/models")).filter((f) => f.endsWith(".json"));
  let accepted = 0, explained = 0, refused = 0, pasteBad = 0;
  for (let i = 0; i < 16; i++) {
    const config = JSON.parse(fs.readFileSync(path.join(SOURCE_DIR, "examples/models", pick(models)), "utf8"));
    let text;
    if (i % 5 === 4) text = JSON.stringify(config).slice(0, 40 + int(200));                         // broken JSON
    else {
      const keys = Object.keys(config);
      for (let n = 1 + int(3); n > 0; n--) {
        const k = pick(keys);
        if (int(3) === 0) delete config[k]; else config[k] = nasty();
      }
      text = JSON.stringify(config, null, 1);
    }
    const before = await page.evaluate(() => window.trnsim.scenario());
    await clickItem(page, "paste-config");
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Delete");
    await page.evaluate((t) => {
      const dt = new DataTransfer();
      dt.setData("text/plain", t);
      document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true }));
    }, text);
    await frames(page, 2);
    await clickItem(page, "use-config");
    const after = JSON.parse(await page.evaluate(() => window.trnsim.scenario()));
    const revert = await itemRect(page, "revert");
    const stopped = /stopped/.test((await page.locator("#message").textContent()) || "");
    let ok = !stopped;
    if (revert) { explained++; await clickItem(page, "revert"); }
    else if (JSON.stringify(after.workload.model) === JSON.stringify((() => { try { return JSON.parse(text); } catch { return null; } })())) accepted++;
    else if ((await page.evaluate(() => window.trnsim.scenario())) === before) refused++;
    else ok = false;
    const ink = await inkNow();
    if (!ok || ink < 0.05) {
      pasteBad++;
      await screenshot(page, `never-blank-paste-${i}`);
      check(false, `pasted config ${i}: ${stopped ? "the playground stopped" : ink < 0.05 ? "blank canvas" : "neither accepted nor explained"}`);
    }
  }
  console.log(`# 16 pasted configs: ${accepted} accepted, ${explained} explained (Revert), ${refused} refused as not JSON`);
  check(pasteBad === 0, "every pasted config is accepted, explained or refused, and the canvas keeps drawing");
  check(accepted + explained + refused === 16 && explained > 0, "... with some of each kind that occurs");
  await screenshot(page, "never-blank-end");
  check(consoleErrors.length === 0, `no errors in the console (${consoleErrors.slice(0, 3).join(" | ") || "none"})`);
}, { viewport: { width: 1000, height: 640 } });  // smaller than the other tests' 1400 x 900: this
// test checks that the page draws, not its layout, and each screenshot and frame of software
// GL costs by the pixel (measured alone: 52 -> 41 s)
finish();
