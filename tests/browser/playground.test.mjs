// The playground as a person meets it: the page loads and draws; its scenario and report
// are the CLI's, byte for byte (`trnsim link decode`, `trnsim run --json`); a link made by
// `trnsim link encode` restores its scenario; malformed, tampered and oversized links show
// a visible message and the default scenario; dragging a slider and typing into it
// change the scenario, the report and the URL (one history entry per interaction, Back
// and Forward move through them); an invalid combination is explained and not applied;
// "Copy link" copies the page's address; a pasted config.json becomes the model. Prints the targets it measures: first frame,
// .wasm size (raw and gzipped), re-evaluation time after an edit.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import {
  SITE, SOURCE_DIR, check, clickItem, cli, dragItem, finish, frames, inkOf, itemRect, openPlayground, screenshot, withPage,
} from "./lib.mjs";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "trnsim-browser-"));
const reportOfLink = (link) => {
  const file = path.join(tmp, `link-${Date.now()}.json`);
  fs.writeFileSync(file, cli("link", "decode", link));
  return cli("run", "--json", file);
};

// Size targets of the module: at most 1 MB gzipped (what a visitor downloads) and 3.6 MB
// unpacked (the embedded examples, model configs and stack data -- about 0.5 MB of JSON that
// gzip packs several-fold -- grew with the video and serving models).
const wasm = fs.readFileSync(path.join(SITE, "trnsim.wasm"));
const gz = zlib.gzipSync(wasm, { level: 9 }).length;
console.log(`# trnsim.wasm: ${(wasm.length / 1e6).toFixed(2)} MB, ${(gz / 1e6).toFixed(2)} MB gzipped; trnsim.js ${(fs.statSync(path.join(SITE, "trnsim.js")).size / 1e3).toFixed(0)} kB`);
// 3.6 MB: the capacity planner, NVFP4 kernels and NCCL collectives took it past 3.5 MB (3.52).
// 3.8 MB and 1.05 MB gzipped: the page's Capacity panel, the GPU serving stacks and the H100
// validation rows took it to 3.82 / 1.03; embedding the data files without indentation won
// back 86 kB of it (3.74 / 1.02). 4.0 MB and 1.10 MB gzipped: FLUX.1-dev and Qwen-Image (models,
// importer, examples), the 108 H1 validation figures (91 kB of data, a whole scenario each) and
// the serve economics took it to 3.91 / 1.047. 4.1 MB: per-layer attention shapes and five model
// families with two bundled configs, the MoE decode kernel and torch-blockwise stacks, the
// decomposed attention path and the lazy decode took it to 4.007 / 1.068 (gzipped still within
// 1.10). 4.2 MB: the MLPerf harness and its 23 H2 figures, SGLang's stack with wide expert
// parallelism and H5, TensorRT-LLM's DEP and weight-only path and the collective runner took it to
// 4.143 / 1.089 (68 kB of it data, after the MLPerf rows' replicas became one repeated
// computation: 4.195 before). 4.3 MB and 1.12 MB gzipped: Mamba2 layers and the bundled Granite
// 4.0 H-Tiny, the MLPerf rows' NVIDIA settings (capacity policy, pipeline micro-batches), the
// CUTLASS MoE passes, row 21's MLA operator time and the H1 rows' EOS stops (23 kB more of their
// notes and scenarios) took it to 4.203 / 1.101. The first frame is measured by scripts/bench.sh.
check(wasm.length <= 4.3e6, `trnsim.wasm is at most 4.3 MB (${wasm.length} bytes)`);
check(gz <= 1.12e6, `trnsim.wasm is at most 1.12 MB gzipped (${gz} bytes)`);

await withPage(async ({ page, base, outside, consoleErrors }) => {
  const ms = await openPlayground(page, base);
  const stats = await page.evaluate(() => window.trnsim.stats());
  console.log(`# first frame ${stats.first_frame_ms.toFixed(0)} ms after navigation started; page ready (API + 4 frames) after ${ms} ms`);
  // The target is 1 s on this project's machines (scripts/bench_page.mjs measures it for the
  // bench report). Today's page takes 2-3.3 s here while the test command runs its other tests
  // beside it, so the bound is twice that, 6 s: a regression shows without a flaky test. It
  // tightens to three times the target once the target is met.
  check(stats.first_frame_ms > 0 && stats.first_frame_ms < 6000,
        `the first frame is drawn within 6 s of navigation (${stats.first_frame_ms.toFixed(0)} ms; target 1 s)`);
  const ink = await inkOf(page, await screenshot(page, "playground-default"));
  check(ink > 0.08, `the page is not blank (${(ink * 100).toFixed(1)}% of the pixels differ from the background)`);

  const report = await page.evaluate(() => window.trnsim.report());
  check(report === cli("run", "--json", "examples/default.json"), "window.trnsim.report() equals trnsim run --json examples/default.json");
  const link = cli("link", "encode", "examples/default.json").trim();
  const scenario = await page.evaluate(() => window.trnsim.scenario());
  check(scenario === cli("link", "decode", link), "window.trnsim.scenario() equals trnsim link decode of the default link");
  check((await page.evaluate(() => window.trnsim.message())) === "", "no message for the default scenario");

  // Re-evaluation time of the UltraServer scenario, in the page.
  const evalMs = await page.evaluate(() => window.trnsim.timeEvaluate(20));
  console.log(`# evaluate(default UltraServer scenario) in the page: ${evalMs.toFixed(2)} ms (mean of 20; target < 16 ms)`);
  check(evalMs < 100, `re-evaluation stays far below a second (${evalMs.toFixed(2)} ms)`);

  // Dragging the batch slider: the scenario, the report and the URL follow.
  const hash0 = await page.evaluate(() => location.hash);
  const historyLength0 = await page.evaluate(() => history.length);
  const rect = await dragItem(page, "workload.inference.batch", 0.25, 0.75);
  const afterDrag = JSON.parse(await page.evaluate(() => window.trnsim.scenario()));
  const st = await page.evaluate(() => window.trnsim.stats());
  console.log(`# edit -> new report and link in the page, over the drag's edits: median ${st.apply_ms_median.toFixed(2)} ms, ` +
              `max ${st.apply_ms_max.toFixed(2)} ms (target < 16 ms)`);
  check(st.apply_ms_median < 100, "an edit is re-evaluated well within a second");
  check(afterDrag.workload.inference.batch > 16,
        `dragging the batch slider right raises workload.inference.batch (16 -> ${afterDrag.workload.inference.batch})`);
  const hash1 = await page.evaluate(() => location.hash);
  check(hash1 !== hash0 && hash1.startsWith("#s=1."), "the URL fragment follows the drag");
  check((await page.evaluate(() => history.length)) === historyLength0 + 1, "a whole drag adds one history entry");
  const dragReport = await page.evaluate(() => window.trnsim.report());
  check(dragReport !== report, "the report changes with the drag");
  check(dragReport === reportOfLink(base + hash1), "the dragged page's report equals trnsim run --json of its link");

  // Ctrl+click turns the slider into a text field: type an exact value.
  await clickItem(page, "workload.inference.batch", { modifiers: ["Control"] });
  await page.keyboard.press("Control+A");
  await page.keyboard.type("32");
  await page.keyboard.press("Enter");
  await frames(page, 4);
  const typed = JSON.parse(await page.evaluate(() => window.trnsim.scenario()));
  check(typed.workload.inference.batch === 32, `ctrl+click and typing 32 sets workload.inference.batch (${typed.workload.inference.batch})`);
  const hash2 = await page.evaluate(() => location.hash);
  check((await page.evaluate(() => window.trnsim.report())) === reportOfLink(base + hash2),
        "the typed page's report equals trnsim run --json of its link");
  await screenshot(page, "playground-edited");

  // An invalid combination (ep 3 does not divide the 128 experts): explained, not applied.
  await clickItem(page, "workload.parallelism.ep", { modifiers: ["Control"] });
  await page.keyboard.press("Control+A");
  await page.keyboard.type("3");
  await page.keyboard.press("Enter");
  await frames(page, 4);
  const afterBad = JSON.parse(await page.evaluate(() => window.trnsim.scenario()));
  check(afterBad.workload.parallelism.ep === 1, "an invalid ep is not applied (the scenario keeps ep 1)");
  check((await page.evaluate(() => location.hash)) === hash2, "... and the URL does not change");
  check((await itemRect(page, "revert")) !== null, "... and the panel shows why, with a revert button");
  await screenshot(page, "playground-invalid-combination");
  await clickItem(page, "revert");
  check((await itemRect(page, "revert")) === null, "revert clears the explanation");

  // Back and forward move through the edits.
  await page.goBack();
  await frames(page, 4);
  check((await page.evaluate(() => location.hash)) === hash1, "Back returns to the dragged scenario");
  check(JSON.parse(await page.evaluate(() => window.trnsim.scenario())).workload.inference.batch === afterDrag.workload.inference.batch,
        "... with its batch");
  await page.goBack();
  await frames(page, 4);
  check((await page.evaluate(() => window.trnsim.scenario())) === scenario, "Back again returns to the scenario before the edits");
  await page.goForward();
  await frames(page, 4);
  check(JSON.parse(await page.evaluate(() => window.trnsim.scenario())).workload.inference.batch === afterDrag.workload.inference.batch,
        "Forward moves to the dragged scenario again");

  // Copy link puts the page's address on the clipboard.
  await clickItem(page, "copy-link");
  const copied = await page.evaluate(() => window.trnsim.lastCopied);
  check(copied === (await page.evaluate(() => location.href)), "Copy link copies the page's address");

  // Pasting a Hugging Face config.json (the browser's paste event) and using it as the model.
  const config = fs.readFileSync(path.join(SOURCE_DIR, "examples/models/Llama-3.1-8B.json"), "utf8");
  await openPlayground(page, base + link.slice(link.indexOf("#")));
  await clickItem(page, "paste-config-open");
  await clickItem(page, "paste-config");
  await page.evaluate((text) => {
    const dt = new DataTransfer();
    dt.setData("text/plain", text);
    document.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true }));
  }, config);
  await frames(page, 3);
  await clickItem(page, "use-config");
  const pasted = JSON.parse(await page.evaluate(() => window.trnsim.scenario()));
  check(JSON.stringify(pasted.workload.model) === JSON.stringify(JSON.parse(config)),
        "a config.json pasted into the model box becomes the scenario's inline model");
  const hash3 = await page.evaluate(() => location.hash);
  check((await page.evaluate(() => window.trnsim.report())) === reportOfLink(base + hash3),
        "... and the report equals trnsim run --json of the new link");
  await screenshot(page, "playground-pasted-config");

  // A link made by the CLI restores its scenario and report.
  const other = cli("link", "encode", "tests/browser/data/small.json").trim();
  await openPlayground(page, base + other.slice(other.indexOf("#")));
  check((await page.evaluate(() => window.trnsim.scenario())) === cli("link", "decode", other),
        "a link from trnsim link encode restores the same scenario");
  check((await page.evaluate(() => window.trnsim.report())) === cli("run", "--json", "tests/browser/data/small.json"),
        "... and the same report as trnsim run --json");

  // Malformed, tampered and oversized fragments: a visible message, the default scenario.
  const payload = link.slice(link.indexOf("#s=1.") + 5);
  // Tampered: the first character carries the top bits of the MessagePack map header.
  const tampered = "#s=1." + (payload[0] === "A" ? "B" : "A") + payload.slice(1);
  const bad = [
    ["malformed", "#s=1.this-is-not-a-scenario"],
    ["tampered", tampered],
    ["truncated", "#s=1." + payload.slice(0, payload.length / 2)],
    ["oversized", "#s=1." + "A".repeat(300 * 1024)],
    ["another version", "#s=7." + payload],
  ];
  for (const [what, frag] of bad) {
    await page.goto("about:blank");
    await openPlayground(page, base + frag);
    const msg = await page.locator("#message").textContent();
    check(await page.locator("#message").isVisible(), `the ${what} link shows a visible message`);
    check(/could not be opened/.test(msg), `... saying what went wrong: "${msg.slice(0, 140)}"`);
    check((await page.evaluate(() => window.trnsim.scenario())) === cli("link", "decode", link),
          `... and the default scenario`);
    if (what === "malformed")
      check((await inkOf(page, await screenshot(page, "playground-bad-link"))) > 0.08, "the page is not blank after a malformed link");
  }

  check(outside.length === 0, `no request outside the site's folder (${outside.join(", ") || "none"})`);
  check(consoleErrors.length === 0, `no errors in the console (${consoleErrors.join(" | ") || "none"})`);
});
fs.rmSync(tmp, { recursive: true, force: true });
finish();
