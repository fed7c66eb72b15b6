// Shared helpers for the browser tests: serve build/site on a free loopback port,
// launch Debian's chromium through playwright-core (never a downloaded browser), run
// the native CLI, and check that a canvas actually shows something.
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
  const r = spawnSync(CLI, args, { cwd: SOURCE_DIR, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`trnsim ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

export async function withPage(fn) {
  const server = await startServer(SITE, 0);
  const base = `http://127.0.0.1:${server.address().port}/`;
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--no-sandbox", "--enable-unsafe-swiftshader", "--use-angle=swiftshader", "--disable-quic",
           "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
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

export async function openPlayground(page, url) {
  const started = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => window.trnsim && window.trnsim.ready, null, { timeout: 60000 });
  // Let a few frames render.
  await page.waitForTimeout(300);
  return Date.now() - started;
}

// Share of canvas pixels that differ from the clear colour, decoded by the browser
// itself from a real screenshot (so it sees what a person would see).
export async function canvasInk(page) {
  const png = await page.locator("#canvas").screenshot();
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.width; c.height = img.height;
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const bg = [d[d.length - 4], d[d.length - 3], d[d.length - 2]];
    let ink = 0;
    for (let i = 0; i < d.length; i += 4)
      if (Math.abs(d[i] - bg[0]) + Math.abs(d[i + 1] - bg[1]) + Math.abs(d[i + 2] - bg[2]) > 30) ink++;
    return ink / (d.length / 4);
  }, png.toString("base64"));
}

export async function screenshot(page, name) {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, name + ".png") });
}

let failures = 0, checks = 0;
export function check(cond, what) {
  checks++;
  if (cond) console.log(`ok - ${what}`);
  else { failures++; console.log(`not ok - ${what}`); }
}
export function finish() {
  console.log(`${checks - failures} passed, ${failures} failed`);
  process.exit(failures ? 1 : 0);
}
