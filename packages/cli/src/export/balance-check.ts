import type { Platform, ScraperClient } from "@content-scraper/client";
import type { Creator } from "../creators.js";
import type { Reporter } from "../progress.js";
import { type ExportState, checkpointCredits } from "./state.js";

export interface BalanceCheck {
  client: ScraperClient;
  platform: Platform;
  state: ExportState;
  creators: Creator[];
  reporter: Reporter;
  run: string;
  /** The run itself may have lost answers (a fleet worker died in it). */
  dirty: boolean;
}

/**
 * Learns the balance at the end of a run that completed the export while answers lost in flight (by this run's dead
 * workers, or by an earlier run that was killed) are still unfound: nothing is in flight, so one profile asked again
 * alone tells the balance, and the runs journal finds what was lost. Answers whether it did.
 */
export async function checkBalance({ client, platform, state, creators, reporter, run, dirty }: BalanceCheck): Promise<boolean> {
  const who = dirty ? "a worker died with answers in flight" : "an earlier run was killed with answers in flight, and no run since learnt the balance";
  const checkpoints = await state.store.all(creators);
  const found = creators.find((creator) => checkpoints.get(creator.identity)?.status === "done");
  if (!found) {
    reporter.note(`${who}, and no creator is done to ask for again: the next run accounts for them`);
    return false;
  }
  try {
    const { meta } = await client.profile(platform, found.handle);
    await state.runs.probe(run, meta.creditsCharged);
    await state.runs.point(run, meta.creditsRemaining, state.runs.total(checkpointCredits(checkpoints.values())), dirty, meta.creditsCharged);
    reporter.note(`${who}: ${meta.creditsCharged} credit(s) spent on a balance check to account for them`);
    return true;
  } catch (error) {
    reporter.note(`${who}, and the balance check failed (${(error as Error).message}): the next run accounts for them`);
    return false;
  }
}
