// Interrupted catalog walks resumed from their saved state, against the sandbox: what `pnpm test` asserts and
// `pnpm bench` reports (issue: a resumed walk never pays for page one again and re-fetches at most one page).
import { createScraperClient, postKey } from "@content-scraper/client";

const cursorPlatforms = ["shortvideo", "photoshare", "videosite", "socialnet", "microblog"];

/** A small seeded generator (mulberry32), so that every run kills its walk at the same place each time. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The sandbox ledger of the posts operation since the last reset: pages served and credits charged. */
async function ledger(mock, operationId) {
  const entries = await mock.log({ operation: operationId });
  return { pages: entries.length, credits: entries.reduce((sum, entry) => sum + entry.creditsCharged, 0) };
}

/**
 * One run: walk a creator's catalog whole (the reference), then walk it again, stop at a random post of a random
 * page as a crash would, and resume from the saved state in a new client. Returns what each walk cost.
 */
async function run(mock, index, seed) {
  const next = random(seed * 1000 + index);
  const platform = cursorPlatforms[index % cursorPlatforms.length];
  const creator = `resume.${seed}.${index}`;
  const baseUrl = mock.baseUrls.scraper;
  const client = () => createScraperClient({ apiKey: `scrape_live_resume_${seed}_${index}`, baseUrl, rateLimit: false });
  const operationId = `${platform}Posts`;

  await mock.reset();
  const whole = [];
  for await (const post of client().walkPosts(platform, creator)) whole.push(postKey(post));
  const reference = await ledger(mock, operationId);

  await mock.reset();
  const stored = new Map();
  let duplicates = 0;
  const store = (post) => {
    if (stored.has(postKey(post))) duplicates++;
    stored.set(postKey(post), post);
  };
  const crashAt = Math.floor(next() * whole.length);
  const first = client().walkPosts(platform, creator);
  let saved;
  let taken = 0;
  for await (const post of first) {
    if (taken++ === crashAt) break; // the crash: this post and the rest of its page were never stored
    store(post);
    saved = first.state; // the checkpoint, written after the post is stored
  }
  const resumedClient = client();
  const resumed = resumedClient.walkPosts(platform, creator, { cursor: saved?.cursor });
  const yielded = new Set();
  let yieldedTwice = 0;
  for await (const post of resumed) {
    if (yielded.has(postKey(post))) yieldedTwice++;
    yielded.add(postKey(post));
    if (!stored.has(postKey(post))) store(post);
  }
  const interrupted = await ledger(mock, operationId);
  return {
    pagesWhole: reference.pages,
    pagesInterrupted: interrupted.pages,
    missing: whole.filter((key) => !stored.has(key)).length,
    duplicates,
    yieldedTwice,
    creditsCounted: first.state.creditsCharged + resumed.state.creditsCharged,
    creditsLedger: interrupted.credits,
    usageCredits: resumedClient.usage.creditsCharged,
    resumedCredits: resumed.state.creditsCharged,
  };
}

/** `runs` interrupted walks: the most extra pages any of them fetched, duplicates, missing posts, and credit mismatches. */
export async function resumeRuns(mock, { runs = 100, seed = 1 } = {}) {
  const results = [];
  for (let index = 0; index < runs; index++) results.push(await run(mock, index, seed));
  return {
    runs,
    maxExtraPages: Math.max(...results.map((result) => result.pagesInterrupted - result.pagesWhole)),
    duplicates: results.reduce((sum, result) => sum + result.duplicates + result.yieldedTwice, 0),
    missing: results.reduce((sum, result) => sum + result.missing, 0),
    creditMismatches: results.filter((result) => result.creditsCounted !== result.creditsLedger || result.usageCredits !== result.resumedCredits).length,
    multiPage: results.filter((result) => result.pagesWhole > 1).length,
  };
}
