// The playground as a person meets it: the page loads and draws, its report equals the
// CLI's for the default scenario, a link restores a scenario, a bad link shows a message
// and the default scenario, and the page asks for nothing outside its own folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { check, cli, finish, openPlayground, withPage, canvasInk, screenshot } from "./lib.mjs";

await withPage(async ({ page, base, outside, consoleErrors }) => {
  const ms = await openPlayground(page, base);
  console.log(`# first frame after ${ms} ms`);
  await screenshot(page, "playground-default");
  const ink = await canvasInk(page);
  check(ink > 0.02, `canvas is not blank (${(ink * 100).toFixed(1)}% of pixels drawn)`);

  const report = await page.evaluate(() => window.trnsim.report());
  check(report === cli("run", "--json", "examples/default.json"), "window.trnsim.report() equals trnsim run --json examples/default.json");
  const link = cli("link", "encode", "examples/default.json").trim();
  const scenario = await page.evaluate(() => window.trnsim.scenario());
  check(scenario === cli("link", "decode", link), "window.trnsim.scenario() equals trnsim link decode of the default link");
  check((await page.evaluate(() => window.trnsim.message())) === "", "no message for the default scenario");

  // Editing a value in the Scenario panel (the workload's batch field) re-evaluates, and
  // the URL fragment follows; the new report equals the CLI's for the new link.
  const hashBefore = await page.evaluate(() => location.hash);
  await page.mouse.click(200, 499);
  await page.keyboard.press("Control+A");
  await page.keyboard.type("32");
  await page.keyboard.press("Enter");
  await page.waitForTimeout(300);
  const edited = JSON.parse(await page.evaluate(() => window.trnsim.scenario()));
  check(edited.workload.inference.batch === 32, `typing 32 into the batch field sets workload.inference.batch (${edited.workload.inference.batch})`);
  const hashAfter = await page.evaluate(() => location.hash);
  check(hashAfter !== hashBefore && hashAfter.startsWith("#s=1."), "the URL fragment follows the edit");
  check((await page.evaluate(() => window.trnsim.report())) !== report, "the report changes with the edit");
  const editedFile = path.join(os.tmpdir(), `trnsim-edited-${process.pid}.json`);
  fs.writeFileSync(editedFile, cli("link", "decode", base + hashAfter));
  check((await page.evaluate(() => window.trnsim.report())) === cli("run", "--json", editedFile),
        "the edited page's report equals trnsim run --json of its link");
  fs.rmSync(editedFile);
  await screenshot(page, "playground-edited");
  await page.goBack();
  await page.waitForTimeout(300);
  check((await page.evaluate(() => window.trnsim.scenario())) === scenario, "Back returns to the scenario before the edit");

  // A link made by the CLI restores its scenario.
  const other = cli("link", "encode", "tests/browser/data/small.json").trim();
  const fragment = other.slice(other.indexOf("#"));
  await openPlayground(page, base + fragment);
  check((await page.evaluate(() => window.trnsim.scenario())) === cli("link", "decode", other),
        "a link from trnsim link encode restores the same scenario");
  check((await page.evaluate(() => window.trnsim.report())) === cli("run", "--json", "tests/browser/data/small.json"),
        "... and the same report as trnsim run --json");

  // A malformed fragment: a visible message, and the default scenario.
  await page.goto("about:blank");
  await openPlayground(page, base + "#s=1.this-is-not-a-scenario");
  const msg = await page.locator("#message").textContent();
  check(await page.locator("#message").isVisible(), "a malformed link shows a visible message");
  check(/could not be opened/.test(msg) && /link/.test(msg), `the message says what went wrong: "${msg}"`);
  check((await page.evaluate(() => window.trnsim.scenario())) === cli("link", "decode", link),
        "the default scenario is shown after a malformed link");
  check((await canvasInk(page)) > 0.02, "the page is not blank after a malformed link");
  await screenshot(page, "playground-bad-link");

  check(outside.length === 0, `no request outside the site's folder (${outside.join(", ") || "none"})`);
  check(consoleErrors.length === 0, `no errors in the console (${consoleErrors.join(" | ") || "none"})`);
});
finish();
