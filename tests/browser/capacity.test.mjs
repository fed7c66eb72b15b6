// The Capacity panel as a person uses it: on a scenario without a "capacity" object it says so
// and offers the capacity examples; clicking one plans it in the page a few families per frame
// (the page keeps drawing: the progress is seen to advance frame by frame up to every family),
// and the finished plan -- window.trnsim.panelState("Capacity"), what the panel draws -- is
// `trnsim capacity FILE --json` value for value, so the cheapest configuration per system is the
// CLI's; the panel draws its table, both front plots and the rejections. Cancel stops a longer
// plan between families, and it stays stopped. Kept short: the agentic example (12 families).
import fs from "node:fs";
import path from "node:path";
import {
  ARTIFACTS, SOURCE_DIR, check, cli, clickItem, finish, frames, openPlayground, screenshot, showPanel, withPage,
} from "./lib.mjs";

const SMALL = "capacity-agentic-gpt-oss-120b";  // 12 families: seconds
const LARGE = "capacity-gpt-oss-120b";           // 160 families: cancelled early

const state = (page) => page.evaluate(() => window.trnsim.panelState("Capacity"));

await withPage(async ({ page, base, outside, consoleErrors }) => {
  await openPlayground(page, base);
  check((await page.evaluate(() => window.trnsim.panels())).includes("Capacity"), "a Capacity tab");

  // The default scenario has no search space: the panel says so and offers the examples.
  await showPanel(page, "Capacity");
  const probes = await page.evaluate(() => window.trnsim.probes());
  check(probes.includes(`capacity:example:${SMALL}`) && probes.includes(`capacity:example:${LARGE}`),
        "without a capacity object the panel offers the capacity examples");
  check((await state(page)).state === "idle", "... and plans nothing");

  // Open the small example from the panel and let it plan, watching the progress each frame
  // and the longest gap between two frames (a family is the unit of work: printed, not asserted).
  await page.evaluate(() => {
    window.capacityGap = { last: performance.now(), max: 0 };
    const tick = (t) => {
      window.capacityGap.max = Math.max(window.capacityGap.max, t - window.capacityGap.last);
      window.capacityGap.last = t;
      if (!window.capacityGap.stop) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await clickItem(page, `capacity:example:${SMALL}`);
  const example = JSON.parse(fs.readFileSync(path.join(SOURCE_DIR, "examples", `${SMALL}.json`), "utf8"));
  check(JSON.parse(await page.evaluate(() => window.trnsim.scenario())).name === example.name, "the button opens the example");
  const seen = [];
  let s = await state(page);
  const drawnBefore = (await page.evaluate(() => window.trnsim.stats())).drawn;
  const started = Date.now();
  for (let i = 0; i < 4000 && s.state === "running"; i++) {
    if (!seen.length || seen[seen.length - 1] !== s.evaluated) seen.push(s.evaluated);
    await frames(page, 1);
    s = await state(page);
  }
  const ms = Date.now() - started;
  const drawn = (await page.evaluate(() => window.trnsim.stats())).drawn - drawnBefore;
  check(s.state === "done", `the plan finishes (${s.state}${s.error ? ": " + s.error : ""})`);
  check(s.evaluated === s.total && s.total === 12, `the progress reaches every family (${s.evaluated} of ${s.total})`);
  check(seen.length >= 2 && seen.every((v, k) => k === 0 || v > seen[k - 1]),
        `the progress advances frame by frame (${seen.join(" ")} of ${s.total})`);
  check(drawn >= seen.length, `the page kept drawing while it planned (${drawn} frames in ${ms} ms)`);
  const gap = await page.evaluate(() => { window.capacityGap.stop = true; return window.capacityGap.max; });
  console.log(`# ${SMALL}: ${s.total} families planned in the page in ${ms} ms over ${drawn} frames; ` +
              `longest frame gap ${gap.toFixed(0)} ms`);

  const want = cli("capacity", `examples/${SMALL}.json`, "--json", "--no-progress");
  // Compared as parsed values (JSON.parse reads the CLI's 1.0 as 1; every double round-trips exactly).
  const got = JSON.stringify(s.plan, null, 2) + "\n";
  check(got === JSON.stringify(JSON.parse(want), null, 2) + "\n", "the page's plan is trnsim capacity --json's, value for value");
  if (got !== JSON.stringify(JSON.parse(want), null, 2) + "\n") {  // for the diff
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, "capacity-page.json"), got);
    fs.writeFileSync(path.join(ARTIFACTS, "capacity-cli.json"), want);
  }
  const w = JSON.parse(want);
  const key = (b) => (b.configuration ? [b.configuration.label, b.configuration.replicas, b.configuration.chips,
    b.configuration.price_per_hour_usd, b.configuration.ttft_s, b.configuration.tpot_s].join(" ") : "none");
  check(s.plan && s.plan.best.length === w.best.length && s.plan.best.every((b, k) => b.system === w.best[k].system &&
        key(b) === key(w.best[k])), `the cheapest per system is the CLI's (${w.best.map(key).join("; ")})`);
  await frames(page, 3);
  const drawnProbes = await page.evaluate(() => window.trnsim.probes());
  for (const p of ["capacity:summary", "capacity:best", "capacity:plot-ttft", "capacity:plot-tpot", "capacity:front"])
    check(drawnProbes.includes(p), `the finished plan draws ${p}`);
  if (w.outcomes.some((o) => !o.meets)) check(drawnProbes.includes("capacity:rejected"), "... and the rejections");
  await screenshot(page, "panel-capacity");

  // Cancel: a longer plan stops between families and stays stopped.
  await page.evaluate((stem) => { location.hash = "#example=" + stem; }, LARGE);
  await frames(page, 3);
  await showPanel(page, "Capacity");
  s = await state(page);
  check(s.state === "running" && s.total > 100, `a new scenario starts a new plan (${s.state}, ${s.total} families)`);
  await clickItem(page, "capacity:cancel");
  s = await state(page);
  check(s.state === "cancelled" && s.evaluated > 0 && s.evaluated < s.total && s.plan === null,
        `Cancel stops it (${s.state} after ${s.evaluated} of ${s.total})`);
  await frames(page, 10);
  const after = await state(page);
  check(after.state === "cancelled" && after.evaluated === s.evaluated, "... and it stays stopped");
  check((await page.evaluate(() => window.trnsim.probes())).includes("capacity:restart"), "... with a button to plan again");

  check(outside.length === 0, `no request left the site (${outside.slice(0, 3).join(", ")})`);
  check(consoleErrors.length === 0, `no console errors (${consoleErrors.slice(0, 3).join(" | ")})`);
}, { viewport: { width: 1400, height: 1400 } });
finish();
