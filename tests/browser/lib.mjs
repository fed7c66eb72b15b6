// Shared helpers for the browser tests: serve the site on a free loopback port, launch
// Debian's chromium through playwright-core (never a downloaded browser), run the native
// CLI, find ImGui controls by name (window.trnsim.itemRect), wait for frames, and check
// that a canvas actually shows something.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { startServer } from "../../scripts/serve.mjs";

export const SOURCE_DIR = process.env.TRNSIM_SOURCE_DIR || path.resolve(import.meta.dirname ?? ".", "../..");
export const SITE = process.env.TRNSIM_SITE || path.join(SOURCE_DIR, "build/site");
export const CLI = process.env.TRNSIM || path.join(SOURCE_DIR, "build/native/trnsim");
export const ARTIFACTS = process.env.TRNSIM_ARTIFACTS || path.join(SOURCE_DIR, "build/test-artifacts");

export function cli(...args) {
  const r = spawnSync(CLI, args, { cwd: SOURCE_DIR, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`trnsim ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

// The scenarios of examples/*.json (the gallery), by file stem.
export function exampleStems() {
  return fs.readdirSync(path.join(SOURCE_DIR, "examples"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .sort();
}

export async function withPage(fn, { viewport = { width: 1400, height: 900 } } = {}) {
  const server = await startServer(SITE, 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const context = await browser.newContext({ viewport });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base.slice(0, -1) });
  const page = await context.newPage();
  const outside = [];
  const consoleErrors = [];
  page.on("request", (req) => { if (!req.url().startsWith(base) && !req.url().startsWith("data:")) outside.push(req.url()); });
  page.on("console", (msg) => { if (msg.type() === "error") consoleErrors.push(msg.text()); });
  page.on("pageerror", (err) => consoleErrors.push(String(err)));
  try {
    await fn({ page, base, outside, consoleErrors });
  } finally {
    await browser.close();
    server.close();
  }
}

// Navigates and waits until the module is running (window.trnsim.ready) and has drawn
// a few frames; returns the milliseconds from navigation to that point.
export async function openPlayground(page, url) {
  const started = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => window.trnsim && window.trnsim.ready, null, { timeout: 60000 });
  await frames(page, 4);
  return Date.now() - started;
}

// Waits for n animation frames (the ImGui loop runs on requestAnimationFrame).
export async function frames(page, n = 3) {
  await page.evaluate((n) => new Promise((resolve) => {
    let k = 0;
    const step = () => (++k >= n ? resolve() : requestAnimationFrame(step));
    requestAnimationFrame(step);
  }), n);
}

// The page rectangle of an ImGui control recorded under `id` in the last frame.
export async function itemRect(page, id) {
  return page.evaluate((id) => window.trnsim.itemRect(id), id);
}

export async function clickItem(page, id, { dx = 0.5, modifiers = [] } = {}) {
  const r = await itemRect(page, id);
  if (!r) throw new Error(`no control '${id}' on screen (probes: ${await page.evaluate(() => window.trnsim.probes().join(" "))})`);
  for (const m of modifiers) await page.keyboard.down(m);
  await page.mouse.move(r.x + r.w * dx, r.y + r.h / 2);
  await frames(page, 2);
  await page.mouse.down();
  await frames(page, 2);
  await page.mouse.up();
  for (const m of modifiers) await page.keyboard.up(m);
  await frames(page, 3);
  return r;
}

// Drags from a fraction of a control's width to another, a few pixels per frame.
export async function dragItem(page, id, fromDx, toDx) {
  const r = await itemRect(page, id);
  if (!r) throw new Error(`no control '${id}' on screen`);
  const y = r.y + r.h / 2;
  await page.mouse.move(r.x + r.w * fromDx, y);
  await frames(page, 2);
  await page.mouse.down();
  await frames(page, 2);
  const steps = 8;
  for (let i = 1; i <= steps; i++) {
    await page.mouse.move(r.x + r.w * (fromDx + ((toDx - fromDx) * i) / steps), y);
    await frames(page, 1);
  }
  await page.mouse.up();
  await frames(page, 3);
  return r;
}

export async function showPanel(page, name) {
  await page.evaluate((n) => window.trnsim.show(n), name);
  await frames(page, 4);
  const current = await page.evaluate(() => window.trnsim.currentPanel());
  if (current !== name) throw new Error(`panel ${name} not shown (current: ${current})`);
}

// A screenshot of the canvas (or a clip), decoded by the browser itself (so it sees what
// a person would see): the share of pixels that differ from the background colour.
export async function canvasInk(page, clip) {
  const png = clip ? await page.screenshot({ clip }) : await page.locator("#canvas").screenshot();
  return inkOf(page, png);
}

// The same for a PNG already taken.
export async function inkOf(page, png) {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    // The background is the most common colour.
    const counts = new Map();
    for (let i = 0; i < d.length; i += 4) {
      const key = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    let bgKey = 0, best = -1;
    for (const [k, n] of counts) if (n > best) best = n, bgKey = k;
    const bg = [bgKey >> 16, (bgKey >> 8) & 255, bgKey & 255];
    let ink = 0;
    for (let i = 0; i < d.length; i += 4)
      if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 30) ink++;
    return ink / (d.length / 4);
  }, png.toString("base64"));
}

// Share of pixels that differ between two screenshots of the same clip.
export async function pixelsChanged(page, a, b) {
  return page.evaluate(async ([a, b]) => {
    const load = async (b64) => {
      const img = new Image();
      img.src = "data:image/png;base64," + b64;
      await img.decode();
      const c = document.createElement("canvas");
      c.width = img.width; c.height = img.height;
      const ctx = c.getContext("2d");
      ctx.drawImage(img, 0, 0);
      return ctx.getImageData(0, 0, c.width, c.height).data;
    };
    const x = await load(a), y = await load(b);
    if (x.length !== y.length) return 1;
    let n = 0;
    for (let i = 0; i < x.length; i += 4)
      if (Math.abs(x[i] - y[i]) + Math.abs(x[i + 1] - y[i + 1]) + Math.abs(x[i + 2] - y[i + 2]) > 30) n++;
    return n / (x.length / 4);
  }, [a.toString("base64"), b.toString("base64")]);
}

// Writes $TRNSIM_ARTIFACTS/<name>.png and returns the PNG.
export async function screenshot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return page.screenshot({ path: path.join(ARTIFACTS, name + ".png") });
}

let failures = 0, checks = 0, last = Date.now();
export function check(cond, what) {
  checks++;
  // TRNSIM_TEST_TIMING=1: how long each check took to reach, to find the slow steps.
  const t = process.env.TRNSIM_TEST_TIMING ? `[${Date.now() - last} ms] ` : "";
  last = Date.now();
  if (cond) console.log(`ok - ${t}${what}`);
  else { failures++; console.log(`not ok - ${t}${what}`); }
}
export function finish() {
  console.log(`${checks - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}
