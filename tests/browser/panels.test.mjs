// Every panel, as a person uses it, with a screenshot of each written to $TRNSIM_ARTIFACTS
// (panel-*.png): the default scenario's Report, Fabric, Timeline, Roofline, MX lab and
// Compare, and the training example's. Interactions: hovering the fabric shows a
// tooltip, the timeline zooms with the wheel, pans by dragging and fits again with "Fit",
// the MX lab's "use" buttons change the scenario (and its report stays the CLI's), the
// Compare panel lists what differs after an edit.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  canvasInk, check, cli, clickItem, dragItem, finish, frames, inkOf, itemRect, openPlayground, pixelsChanged,
  screenshot,
  showPanel, withPage,
} from "./lib.mjs";

const clipOf = (r) => ({ x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.w), height: Math.round(r.h) });

await withPage(async ({ page, base, consoleErrors }) => {
  await openPlayground(page, base);
  const panels = await page.evaluate(() => window.trnsim.panels());
  check(["Report", "Fabric", "Timeline", "Roofline", "MX lab", "Compare"].every((p) => panels.includes(p)),
        `the views are ${panels.join(", ")}`);
  for (const p of panels) {
    await showPanel(page, p);
    const ink = await inkOf(page, await screenshot(page, `panel-${p.replace(/ /g, "-").toLowerCase()}`));
    check(ink > 0.08, `${p} draws (${(ink * 100).toFixed(1)}% of the pixels differ from the background)`);
  }

  // Fabric: both sides drawn; hovering shows a tooltip.
  await showPanel(page, "Fabric");
  for (const side of ["left", "right"]) {
    const r = await itemRect(page, `fabric:${side}`);
    check(r && (await canvasInk(page, clipOf(r))) > 0.02, `the fabric's ${side} side is drawn`);
  }
  const left = await itemRect(page, "fabric:left");
  await page.mouse.move(left.x + 5, left.y + 5);
  await frames(page, 3);
  const before = await page.screenshot({ clip: clipOf(left) });
  // The second-level switches sit at the hub of the NeuronSwitch wheel.
  let changed = 0;
  for (const [fx, fy] of [[0.435, 0.5], [0.565, 0.5], [0.5, 0.45]]) {
    await page.mouse.move(left.x + left.w * fx, left.y + left.h * fy);
    await frames(page, 3);
    changed = Math.max(changed, await pixelsChanged(page, before, await page.screenshot({ clip: clipOf(left) })));
    if (changed > 0.001) break;
  }
  check(changed > 0.001, `hovering the fabric shows a tooltip (${(changed * 100).toFixed(2)}% of the area changed)`);
  await screenshot(page, "panel-fabric-hover");
  await clickItem(page, "fabric:mode-custom");
  await screenshot(page, "panel-fabric-custom");

  // Timeline: wheel zooms, drag pans, double-click fits.
  await showPanel(page, "Timeline");
  const chart = await itemRect(page, "timeline:chart");
  const shot = () => page.screenshot({ clip: clipOf(chart) });
  await page.mouse.move(chart.x + chart.w * 0.3, chart.y + chart.h / 2);
  await frames(page, 2);
  const t0 = await shot();
  await page.mouse.wheel(0, -400);
  await frames(page, 4);
  const t1 = await shot();
  check((await pixelsChanged(page, t0, t1)) > 0.01, "the mouse wheel zooms the timeline");
  await screenshot(page, "panel-timeline-zoomed");
  await dragItem(page, "timeline:chart", 0.6, 0.3);
  const t2 = await shot();
  check((await pixelsChanged(page, t1, t2)) > 0.01, "dragging pans the timeline");
  await clickItem(page, "timeline:fit");
  await page.mouse.move(chart.x + chart.w * 0.3, chart.y + chart.h / 2);
  await frames(page, 3);
  check((await pixelsChanged(page, t0, await shot())) < 0.02, "Fit shows the whole trace again");

  // MX lab: adopting a precision changes the scenario; its report is still the CLI's.
  await showPanel(page, "MX lab");
  await clickItem(page, "mx:use:workload.precision.weights:mxfp8");
  const s = JSON.parse(await page.evaluate(() => window.trnsim.scenario()));
  check(s.workload.precision.weights === "mxfp8", `"use" in the MX lab sets the weights' precision (${s.workload.precision.weights})`);
  const tmp = path.join(os.tmpdir(), `trnsim-panels-${process.pid}.json`);
  fs.writeFileSync(tmp, cli("link", "decode", await page.evaluate(() => location.href)));
  check((await page.evaluate(() => window.trnsim.report())) === cli("run", "--json", tmp), "... and the report is the CLI's for the new link");
  fs.rmSync(tmp);
  await screenshot(page, "panel-mx-lab-mxfp8");

  // Compare: pin, edit A, see what differs.
  await showPanel(page, "Compare");
  await clickItem(page, "compare:pin");
  await clickItem(page, "workload.inference.batch", { modifiers: ["Control"] });
  await page.keyboard.press("Control+A");
  await page.keyboard.type("64");
  await page.keyboard.press("Enter");
  await frames(page, 4);
  const diffs = await itemRect(page, "compare:diffs");
  check(diffs !== null, "the Compare panel lists what differs");
  await screenshot(page, "panel-compare-edited");

  // The training example across UltraServers: every panel again.
  await page.evaluate(() => { location.hash = "#example=llama-3.1-70b-training-ultracluster"; });
  await page.waitForFunction(() => location.hash.startsWith("#s=1."));
  await frames(page, 3);
  for (const p of ["Report", "Fabric", "Timeline", "Roofline"]) {
    await showPanel(page, p);
    if (p === "Fabric") await clickItem(page, "fabric:mode-step");
    const ink = await inkOf(page, await screenshot(page, `panel-training-${p.toLowerCase()}`));
    check(ink > 0.08, `training example: ${p} draws`);
  }
  check(consoleErrors.length === 0, `no errors in the console (${consoleErrors.join(" | ") || "none"})`);
});
finish();
