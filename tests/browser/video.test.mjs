// The Video panel as a person uses it (and the Scenario panel's video fields): on a language-model scenario it lists the bundled
// video examples priced on the scenario's system, one click opens one; on a video scenario
// it draws the phases and the real-time factor against chips, and a click on a point of the
// curve applies that sequence-parallel placement -- the report staying the CLI's for the
// scenario's link. Screenshots in $TRNSIM_ARTIFACTS (panel-video-*.png).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  check, cli, clickItem, finish, frames, inkOf, itemRect, openPlayground, screenshot, showPanel, withPage,
} from "./lib.mjs";

const stem = "video-wan2.1-14b-720p-trn3-gen2";

await withPage(async ({ page, base, consoleErrors }) => {
  await openPlayground(page, base);
  const panels = await page.evaluate(() => window.trnsim.panels());
  check(panels.includes("Video"), `the views include Video (${panels.join(", ")})`);
  await showPanel(page, "Video");
  check((await itemRect(page, `video:example:${stem}`)) !== null, "on the default scenario the panel offers the video examples");
  check((await inkOf(page, await screenshot(page, "panel-video-examples"))) > 0.08, "... and draws them priced on its system");
  await clickItem(page, `video:example:${stem}`);
  await frames(page, 3);
  const file = `examples/${stem}.json`;
  check((await page.evaluate(() => window.trnsim.report())) === cli("run", "--json", file),
        `one click opens ${stem}: window.trnsim.report() equals trnsim run --json ${file}`);
  for (const f of ["width", "height", "frames", "fps", "steps", "ulysses", "ring"])
    check((await itemRect(page, `workload.video.${f}`)) !== null, `the Scenario panel offers workload.video.${f}`);
  check((await itemRect(page, "workload.video.guidance:cfg")) !== null, "... and the guidance choice");
  check((await itemRect(page, "workload.inference.batch")) === null, "... and hides the inference sizes");
  await showPanel(page, "Video");
  check((await itemRect(page, "video:curve")) !== null, "a video scenario shows the real-time factor against chips");
  check((await inkOf(page, await screenshot(page, "panel-video"))) > 0.08, "... and the panel draws");
  const before = JSON.parse(await page.evaluate(() => window.trnsim.scenario())).workload.video;
  check(before.ulysses === 8 && before.ring === 4, `the example runs Ulysses 8 x ring 4 (${before.ulysses} x ${before.ring})`);
  await clickItem(page, "video:point:32");
  await frames(page, 4);
  const after = JSON.parse(await page.evaluate(() => window.trnsim.scenario())).workload.video;
  check(after.ulysses * after.ring === 16 && !(after.ulysses === 8 && after.ring === 4),
        `a click on the curve's 32-chip point applies its placement (Ulysses ${after.ulysses} x ring ${after.ring})`);
  const tmp = path.join(os.tmpdir(), `trnsim-video-${process.pid}.json`);
  fs.writeFileSync(tmp, cli("link", "decode", await page.evaluate(() => location.href)));
  check((await page.evaluate(() => window.trnsim.report())) === cli("run", "--json", tmp), "... and the report is the CLI's for the new link");
  fs.rmSync(tmp);
  await screenshot(page, "panel-video-32-chips");
  check(consoleErrors.length === 0, `no errors in the console (${consoleErrors.join(" | ") || "none"})`);
});
finish();
