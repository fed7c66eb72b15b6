// Every panel, as a person uses it, with a screenshot of each written to $TRNSIM_ARTIFACTS
// (panel-*.png): the default scenario's Report, Fabric, Timeline, Roofline, MX lab,
// Compare and Validation, and the training example's. Interactions: the Scenario panel
// shows a control for every field of the core's field table (a field from every section,
// for inference and for training); hovering the fabric shows a tooltip, and on a cluster
// the Fabric panel switches to another scale-up domain; the timeline zooms with the
// wheel, pans by dragging and fits again with "Fit"; the MX lab's "use" buttons change
// the scenario (and its report stays the CLI's); the Compare panel lists what differs
// after an edit; the Validation panel shows the table, filters it, and prices it on either
// pricer without freezing the page.
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
  check(["Report", "Fabric", "Timeline", "Roofline", "MX lab", "Compare", "Validation"].every((p) => panels.includes(p)),
        `the views are ${panels.join(", ")}`);
  for (const p of panels) {
    await showPanel(page, p);
    const ink = await inkOf(page, await screenshot(page, `panel-${p.replace(/ /g, "-").toLowerCase()}`));
    check(ink > 0.08, `${p} draws (${(ink * 100).toFixed(1)}% of the pixels differ from the background)`);
  }

  // Scenario: a control for every field the table shows for this scenario, so one from
  // every section (the list is the core's field table, window.trnsim.fields()).
  const scenarioControls = async (what) => {
    const fields = await page.evaluate(() => window.trnsim.fields());
    const probes = new Set(await page.evaluate(() => window.trnsim.probes()));
    const shown = fields.filter((f) => f.shown);
    const missing = shown.filter((f) => !probes.has(f.path)).map((f) => f.path);
    check(missing.length === 0, `${what}: the Scenario panel has a control for each of the ${shown.length} fields shown (missing: ${missing.join(", ") || "none"})`);
    const sections = [...new Set(fields.map((f) => f.section))];
    const withShown = sections.filter((sec) => shown.some((f) => f.section === sec));
    const covered = withShown.filter((sec) => shown.some((f) => f.section === sec && probes.has(f.path)));
    // A section is hidden only when each of its fields is conditional (shown_when: the other
    // kinds' sections, the serving trace and session settings under other arrivals).
    const hiddenOk = sections.filter((x) => !withShown.includes(x))
      .every((sec) => fields.filter((f) => f.section === sec).every((f) => f.shown_when));
    check(covered.length === withShown.length && hiddenOk && withShown.length >= sections.length - 4,
          `${what}: a field from every section (${covered.map((c) => c || "(top)").join(" | ")}; hidden: ` +
          `${sections.filter((x) => !withShown.includes(x)).join(", ") || "none"})`);
    return shown;
  };
  const inferenceFields = await scenarioControls("inference");
  check(inferenceFields.some((f) => f.path === "workload.inference.batch") && !inferenceFields.some((f) => f.path.startsWith("workload.training.")),
        "inference shows the inference sizes and hides the training sizes");

  // Validation: the table of `trnsim validate`, filtered by text.
  await showPanel(page, "Validation");
  await frames(page, 4);
  const table = await itemRect(page, "validation:table");
  check(table !== null && (await itemRect(page, "validation:summary")) !== null, "the Validation panel shows its summary and table");
  await screenshot(page, "panel-validation-table");
  const tableShot = await page.screenshot({ clip: clipOf(table) });
  await clickItem(page, "validation:filter");
  await page.keyboard.type("DeepSeek");
  await frames(page, 4);
  check((await pixelsChanged(page, tableShot, await page.screenshot({ clip: clipOf(table) }))) > 0.01,
        "typing a filter narrows the Validation table");
  await screenshot(page, "panel-validation-filtered");
  // The pricer: rows arrive a few per frame; on the roofline they are `trnsim validate
  // --json`'s, on the engine `trnsim validate --pricer engine --json`'s, and the page keeps
  // drawing frames while the engine's (seconds of work) come in.
  const settled = async () => {
    for (let i = 0; i < 2000; i++) {
      const s = await page.evaluate(() => window.trnsim.panelState("Validation"));
      if (s.done) return s;
      await frames(page, 1);
    }
    throw new Error("the Validation panel never finished evaluating");
  };
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const roofline = await settled();
  check(!("pricer" in roofline) && same(roofline.rows, JSON.parse(cli("validate", "--json")).rows),
        "the Validation panel's rows are `trnsim validate --json`'s");
  const framesBefore = (await page.evaluate(() => window.trnsim.stats())).frames;
  await clickItem(page, "validation:pricer:engine");
  await frames(page, 2);
  check((await itemRect(page, "validation:progress")) !== null, "the engine's run shows a progress bar");
  await screenshot(page, "panel-validation-engine-running");
  const engine = await settled();
  const framesDuring = (await page.evaluate(() => window.trnsim.stats())).frames - framesBefore;
  check(engine.pricer === "engine" && same(engine.rows, JSON.parse(cli("validate", "--json", "--pricer", "engine")).rows),
        "on the engine pricer the panel's rows are `trnsim validate --pricer engine --json`'s");
  check(framesDuring > 10, `the page kept drawing while the engine's rows were evaluated (${framesDuring} frames)`);
  check((await itemRect(page, "validation:progress")) === null, "the progress bar goes when the run is done");
  await screenshot(page, "panel-validation-engine");
  await clickItem(page, "validation:pricer:roofline");
  check(same((await settled()).rows, roofline.rows), "back on the roofline, the rows are the roofline's again");

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
  // NVFP4 beside the MX formats, with its gain over MXFP4 on the lab's samples
  const mxProbes = await page.evaluate(() => window.trnsim.probes());
  check(mxProbes.includes("mx:sqnr:nvfp4") && mxProbes.includes("mx:sqnr:e2m1") && mxProbes.includes("mx:nvfp4-vs-mxfp4"),
        `the MX lab lists nvfp4 and its comparison with MXFP4 (${mxProbes.filter((p) => p.startsWith("mx:")).join(" ")})`);
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
  const trainingFields = await scenarioControls("training");
  check(trainingFields.some((f) => f.path === "workload.training.zero_stage") && !trainingFields.some((f) => f.path.startsWith("workload.inference.")),
        "training shows the training sizes and hides the inference sizes");
  await screenshot(page, "panel-training-scenario");
  for (const p of ["Report", "Fabric", "Timeline", "Roofline"]) {
    await showPanel(page, p);
    if (p === "Fabric") await clickItem(page, "fabric:mode-step");
    const ink = await inkOf(page, await screenshot(page, `panel-training-${p.toLowerCase()}`));
    check(ink > 0.08, `training example: ${p} draws`);
  }

  // Fabric on a cluster: any scale-up domain (typing 5 into the left side's domain slider).
  await showPanel(page, "Fabric");
  const chipsText = await itemRect(page, "fabric:domain-chips:left");
  check(chipsText !== null, "on a cluster the Fabric panel offers a choice of domain");
  const chipsBefore = await page.screenshot({ clip: clipOf(chipsText) });
  await clickItem(page, "fabric:domain:left", { modifiers: ["Control"] });
  await page.keyboard.press("Control+A");
  await page.keyboard.type("5");
  await page.keyboard.press("Enter");
  await frames(page, 4);
  check((await pixelsChanged(page, chipsBefore, await page.screenshot({ clip: clipOf(chipsText) }))) > 0.02,
        "the left side switches to domain 5 (its chip range changes)");
  const leftSide = await itemRect(page, "fabric:left");
  check((await canvasInk(page, clipOf(leftSide))) > 0.02, "... and domain 5 is drawn");
  await screenshot(page, "panel-training-fabric-domain-5");
  check(consoleErrors.length === 0, `no errors in the console (${consoleErrors.join(" | ") || "none"})`);
});
finish();
