// How fast the playground page is ready: headless Chromium (Debian's, through playwright-core)
// opens the built site (build/site, served by scripts/serve.mjs) in a fresh browser each time
// -- an empty cache, as a first visit -- and reads the milliseconds from navigation to the
// first frame drawn with the default report (window.trnsim.stats().first_frame_ms), with the
// moments the module was downloaded, compiled and started and main()'s stages ended
// (window.trnsimLoad: the WebGL context, ImGui, the app, the default scenario's report). The baseline, measured in the same
// run, is a static page of the same site (about.html) until its first animation frame: what
// the browser takes for any page. Writes Google Benchmark-style JSON (scripts/bench.sh reads
// it as the "page" family; times in milliseconds, the median of the loads is what counts).
// Usage: node scripts/bench_page.mjs OUT.json [LOADS]      (default 5 loads)
import fs from "node:fs";
import { withPage } from "../tests/browser/lib.mjs";

const [out, loadsArg] = process.argv.slice(2);
if (!out) {
  console.error("usage: node scripts/bench_page.mjs OUT.json [LOADS]");
  process.exit(2);
}
const loads = Math.max(1, Number(loadsArg || 5));

const runs = [];
const run = (name, ms, label = "") =>
  runs.push({ name, run_name: name, run_type: "iteration", repetitions: loads, iterations: 1, real_time: ms, cpu_time: ms,
    time_unit: "ms", label });

for (let i = 0; i < loads; i++) {
  await withPage(async ({ page, base }) => {
    // The baseline first: a static page of the same site, to its first animation frame.
    const t0 = Date.now();
    await page.goto(base + "about.html");
    const blank = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
    run("BM_PageStaticFirstFrame", blank);
    // The playground (a new document: nothing of about.html's is reused but the connection).
    await page.goto(base);
    await page.waitForFunction(() => window.trnsim && window.trnsim.ready && window.trnsim.stats().first_frame_ms > 0,
      null, { timeout: 60000 });
    const t = await page.evaluate(() => {
      const res = (n) => performance.getEntriesByType("resource").find((e) => e.name.endsWith(n));
      const s = window.trnsim.stats();
      const load = window.trnsimLoad || {};
      return { first: s.first_frame_ms, wasm: res("trnsim.wasm")?.responseEnd, js: res("trnsim.js")?.responseEnd, load };
    });
    // Where the time went: downloads, then the page's and main()'s marks in the order they came.
    const marks = [["trnsim.js", t.js], ["trnsim.wasm", t.wasm], ...Object.entries(t.load)]
      .filter(([, v]) => v != null).sort((a, b) => a[1] - b[1]);
    run("BM_PageFirstFrame", t.first, marks.map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ") + " ms");
    console.error(`bench_page: load ${i + 1}/${loads}: first frame ${t.first.toFixed(0)} ms (${runs.at(-1).label}); ` +
      `static page ${blank.toFixed(0)} ms (wall ${Date.now() - t0} ms for both)`);
  });
}
fs.writeFileSync(out, JSON.stringify({ context: { loads }, benchmarks: runs }, null, 1));
