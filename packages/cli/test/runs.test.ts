import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Redactor } from "@content-scraper/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { OutputFolder } from "../src/export/folder.js";
import { openRuns, runsFile, shortfall } from "../src/export/runs.js";
import { tempDir } from "./harness.js";

const dirs: Array<Awaited<ReturnType<typeof tempDir>>> = [];
afterAll(async () => {
  for (const dir of dirs) await dir.remove();
});

/** A platform folder whose runs journal holds `lines` (raw text), opened. */
async function journal(text = "") {
  const dir = await tempDir();
  dirs.push(dir);
  const folder = await OutputFolder.open(dir.path, "shortvideo", new Redactor(), { owner: true });
  await writeFile(folder.file(runsFile), text);
  return { folder, runs: await openRuns(folder) };
}

describe("the runs journal's account with the balance", () => {
  it("takes the first point as the baseline, and finds nothing lost after a run that ended clean, even if the balance rose", async () => {
    const { runs } = await journal();
    await runs.begin("r1");
    await runs.point("r1", 1000, 0, false, 1);
    await runs.end("r1");
    await runs.begin("r2");
    // A top-up of 500 between the runs: the first run lost nothing, so there is nothing to reconcile.
    await runs.point("r2", 1490, 10, false, 1);
    expect([runs.unseenCredits, runs.unreconciledRuns]).toEqual([0, 0]);
    await runs.close();
  });

  it("finds what a killed run lost: the balance plus the account dropped by exactly that", async () => {
    const { runs } = await journal();
    await runs.begin("r1");
    await runs.point("r1", 1000, 0, false, 1);
    await runs.begin("r2");
    // r1 saw 20 credits charged and was killed with 3 answers in flight, charged but never seen.
    await runs.point("r2", 977, 20, false, 1);
    expect(runs.unseenCredits).toBe(3);
    expect(runs.total(20)).toBe(23);
    // The found credits are part of the account from then on: a later clean run finds nothing more.
    await runs.end("r2");
    await runs.begin("r3");
    await runs.point("r3", 970, 27, false, 1);
    expect(runs.unseenCredits).toBe(3);
    await runs.close();
  });

  it("counts the runs that may have lost answers until a point finds them, and none once one has", async () => {
    const { runs } = await journal();
    await runs.begin("r1");
    await runs.point("r1", 1000, 0, false, 1);
    expect(runs.awaitingBalance).toBe(1);
    // r1 is killed; r2 learns no balance (every answer it had failed) and ends with nothing in flight.
    await runs.begin("r2");
    await runs.end("r2");
    expect([runs.awaitingBalance, runs.unseenCredits]).toEqual([1, 0]);
    // r3 learns it: the 2 credits r1 lost are found, and nothing awaits.
    await runs.begin("r3");
    await runs.point("r3", 990, 8, false, 1);
    await runs.end("r3");
    expect([runs.awaitingBalance, runs.unseenCredits]).toEqual([0, 2]);
    await runs.close();
  });

  it("finds what a run lost itself when it is dirty (a fleet worker died), and counts the balance check's charge", async () => {
    const { runs } = await journal();
    await runs.begin("r1");
    await runs.point("r1", 1000, 0, false, 1);
    await runs.probe("r1", 1);
    await runs.point("r1", 940, 58, true, 1);
    expect([runs.unseenCredits, runs.probeCredits]).toEqual([2, 1]);
    await runs.close();
  });

  it("flags, never guesses: a balance that rose after a killed run, or a killed run before any balance was known", async () => {
    const topped = (await journal()).runs;
    await topped.begin("r1");
    await topped.point("r1", 1000, 0, false, 1);
    await topped.begin("r2");
    await topped.point("r2", 5000, 20, false, 1);
    expect([topped.unseenCredits, topped.unreconciledRuns]).toEqual([0, 1]);
    expect(topped.unreconciled).toEqual([{ cause: "balanceRose", creditsAtMost: null }]);
    await topped.close();

    const blind = (await journal()).runs;
    await blind.begin("r1");
    await blind.begin("r2");
    await blind.point("r2", 1000, 5, false, 1);
    expect([blind.unseenCredits, blind.unreconciledRuns]).toEqual([0, 1]);
    await blind.close();
  });

  it("records why a loss before any balance cannot be found, bounded by one call per run killed, and by none once a run went wide", async () => {
    const { folder, runs } = await journal();
    // r1 was killed during its first request (the export's first): nothing before it tells the balance.
    await runs.begin("r1");
    await runs.begin("r2");
    await runs.point("r2", 997, 5, false, 3);
    expect(runs.unreconciled).toEqual([{ cause: "noEarlierBalance", creditsAtMost: 3 }]);
    expect(shortfall(runs.unreconciled)).toMatch(/^creditsCharged in the manifest may be short by at most 3 credit\(s\): a run was killed before any run of this export had learnt the balance \(during its first request\)/);
    await runs.close();
    // The cause and the bound are in the journal: the next run reads them back.
    const again = await openRuns(folder);
    expect(again.unreconciled).toEqual([{ cause: "noEarlierBalance", creditsAtMost: 3 }]);
    await again.close();

    // A fleet whose first phase learnt no balance, its workers side by side when it was killed: no bound.
    const wide = (await journal()).runs;
    await wide.begin("r1");
    await wide.wide("r1");
    await wide.begin("r2");
    await wide.point("r2", 990, 4, false, 1);
    expect(wide.unreconciled).toEqual([{ cause: "noEarlierBalance", creditsAtMost: null }]);
    expect(shortfall(wide.unreconciled)).toMatch(/may be short by an unknown amount/);
    await wide.close();
    expect(shortfall([])).toBeUndefined();
  });

  it("reads back what it wrote, cuts a torn last line, and counts a line it cannot read as unreconciled", async () => {
    const lines = ['{"run":"r1","begin":true}', '{"run":"r1","point":{"balance":1000,"total":0}}', '{"run":"r2","begin":true}', '{"run":"r2","unseen":4}', "garbage"];
    const { folder, runs } = await journal(`${lines.join("\n")}\n{"run":"r2","poi`);
    expect([runs.unseenCredits, runs.unreconciledRuns]).toEqual([4, 1]);
    expect(await readFile(join(folder.path, runsFile), "utf8")).toBe(`${lines.join("\n")}\n`);
    // r2 was not ended: the next point reconciles against r1's.
    await runs.begin("r3");
    await runs.point("r3", 990, 6, false, 1);
    expect(runs.unseenCredits).toBe(8);
    await runs.close();
  });
});
