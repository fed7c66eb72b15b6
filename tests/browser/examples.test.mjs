// The gallery: every scenario in examples/*.json opens in the playground (by the page's
// "#example=NAME" link, by one click in the in-app gallery, and from the site's
// gallery.html), and for EACH one window.trnsim.report() equals `trnsim run --json` and
// the address becomes the scenario's own link (`trnsim link encode`). The about page lists
// the source keys of core/data/sources.json.
import fs from "node:fs";
import path from "node:path";
import {
  SOURCE_DIR, check, cli, clickItem, exampleStems, finish, frames, openPlayground, screenshot, withPage,
} from "./lib.mjs";

const stems = exampleStems();
check(stems.length >= 5, `examples/ holds the gallery's scenarios (${stems.length})`);

await withPage(async ({ page, base, outside, consoleErrors }) => {
  await openPlayground(page, base);
  for (const stem of stems) {
    const file = `examples/${stem}.json`;
    const link = cli("link", "encode", file).trim();
    const fragment = link.slice(link.indexOf("#"));
    await page.evaluate((s) => { location.hash = "#example=" + s; }, stem);
    await page.waitForFunction((f) => location.hash === f, fragment, { timeout: 10000 }).catch(() => {});
    await frames(page, 2);
    check((await page.evaluate(() => location.hash)) === fragment, `${stem}: #example=${stem} becomes the scenario's link`);
    check((await page.evaluate(() => window.trnsim.message())) === "", `${stem}: no message`);
    check((await page.evaluate(() => window.trnsim.report())) === cli("run", "--json", file),
          `${stem}: window.trnsim.report() equals trnsim run --json ${file}`);
  }

  // The in-app gallery: one click opens an example.
  const stem = stems.find((s) => s !== "default") || stems[0];
  await openPlayground(page, base);
  await clickItem(page, "gallery");
  await clickItem(page, `gallery:${stem}`);
  const link = cli("link", "encode", `examples/${stem}.json`).trim();
  check((await page.evaluate(() => window.trnsim.scenario())) === cli("link", "decode", link),
        `one click on '${stem}' in the in-app gallery opens it`);
  check((await page.evaluate(() => location.hash)) === link.slice(link.indexOf("#")), "... and puts its link in the address");
  await page.goBack();
  await frames(page, 4);
  check(JSON.parse(await page.evaluate(() => window.trnsim.scenario())).name ===
        JSON.parse(cli("link", "decode", cli("link", "encode", "examples/default.json").trim())).name,
        "Back returns to the scenario before the gallery");

  // The site's gallery page: one card per example, each opening the playground.
  await page.goto(base + "gallery.html");
  const hrefs = await page.locator("a.open").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  check(hrefs.length === stems.length, `gallery.html has a card per example (${hrefs.length})`);
  check(stems.every((s) => hrefs.includes(`index.html#example=${s}`)), "... each linking index.html#example=NAME (relative)");
  await screenshot(page, "gallery-page");
  const last = stems[stems.length - 1];
  await page.locator(`a.open[href="index.html#example=${last}"]`).click();
  await page.waitForFunction(() => window.trnsim && window.trnsim.ready, null, { timeout: 60000 });
  await frames(page, 4);
  check((await page.evaluate(() => window.trnsim.report())) === cli("run", "--json", `examples/${last}.json`),
        `clicking '${last}' on gallery.html opens it in the playground`);

  // The about page is there, linked, and local; its table of source keys is generated from
  // core/data/sources.json (web/about.cmake): every key with its document, nothing else.
  await page.goto(base + "about.html");
  check((await page.locator("h1").count()) > 0, "about.html loads");
  const sources = JSON.parse(fs.readFileSync(path.join(SOURCE_DIR, "core/data/sources.json"), "utf8")).sources;
  const rows = await page.locator("table.sources tr").evaluateAll((trs) =>
    trs.slice(1).map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
  check(rows.length === sources.length, `about.html lists ${rows.length} source keys, core/data/sources.json ${sources.length}`);
  check(sources.every((src, i) => rows[i] && rows[i][0] === src.key && rows[i][1] === src.repository &&
                                  rows[i][2] === src.document && rows[i][3] === src.used_for),
        "... each with its repository, document and use, in the data file's order");
  await screenshot(page, "about-page");
  check(outside.length === 0, `no request outside the site's folder (${outside.join(", ") || "none"})`);
  check(consoleErrors.length === 0, `no errors in the console (${consoleErrors.join(" | ") || "none"})`);
});
finish();
