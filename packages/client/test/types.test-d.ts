import { describe, expectTypeOf, it } from "vitest";
import {
  createScraperClient,
  type ErrorCode,
  type ListedPost,
  memoryBudgetStore,
  memoryRateLimitStore,
  type PostsPage,
  type ResponseInfo,
  type ScraperAbortError,
  type ScraperBudgetError,
  type ScraperClient,
  type ScraperError,
  type ScraperTimeoutError,
  type ScraperUsage,
  type WalkState,
  type ScraperApiError,
  type ScraperMeta,
  type ScraperRedirectError,
  type ScraperResponseError,
  type ScraperResponseTooLargeError,
} from "../src/index.js";
import { scraperApi } from "../src/api.js";
import { type FocusedClient, focusedClient } from "../src/focused.js";
import { callOperation, type PagedOperationId, walkOperation } from "../src/operations.js";

const scraper = createScraperClient({ apiKey: "scrape_live_types", baseUrl: "https://api.example.com/api/v1" });

describe("types follow the platforms", () => {
  it("resolves { data, meta } with the platform's own shapes", async () => {
    const profile = await scraper.profile("shortvideo", "creator");
    expectTypeOf(profile.meta).toEqualTypeOf<ScraperMeta>();
    expectTypeOf(profile.data.follower_count).toEqualTypeOf<number>();
    expectTypeOf(profile.data).toHaveProperty("bio").toEqualTypeOf<unknown>();

    const page = await scraper.posts("shortvideo", "creator");
    expectTypeOf(page.data.next_cursor).toEqualTypeOf<string | undefined>();
    expectTypeOf<(typeof page.data.posts)[number]["videoUrl"]>().toEqualTypeOf<string>();
  });

  it("never offers next_cursor on ephemeral and professional", async () => {
    const ephemeral = await scraper.posts("ephemeral", "creator");
    expectTypeOf(ephemeral.data.next_cursor).toEqualTypeOf<undefined>();
    const professional = await scraper.posts("professional", "creator");
    expectTypeOf(professional.data.next_cursor).toEqualTypeOf<undefined>();
  });

  it("keeps videoUrl off videosite listings and transcript off every listing", () => {
    expectTypeOf<ListedPost<"videosite">["videoUrl"]>().toEqualTypeOf<undefined>();
    expectTypeOf<ListedPost<"shortvideo">["transcript"]>().toEqualTypeOf<undefined>();
  });

  it("always carries transcript and topComments on a single post", async () => {
    const { data } = await scraper.post("shortvideo", "https://shortvideo.example/@c/video/1");
    expectTypeOf<(typeof data.posts)[number]["transcript"]>().toEqualTypeOf<string | null>();
    const plain = await scraper.post("microblog", "microblog.example/c/status/1");
    expectTypeOf<(typeof plain.data.posts)[number]["transcript"]>().toEqualTypeOf<null>();
  });

  it("offers contentType on videosite only", () => {
    scraper.posts("videosite", "creator", { contentType: "video" });
    // @ts-expect-error contentType exists on videosite posts only
    scraper.posts("shortvideo", "creator", { contentType: "video" });
  });

  it("offers audience on shortvideo and photoshare only", () => {
    scraper.audience("shortvideo", "creator");
    scraper.audience("photoshare", "creator");
    // @ts-expect-error no audience on videosite
    scraper.audience("videosite", "creator");
    // @ts-expect-error not a platform
    scraper.profile("tiktok", "creator");
  });

  it("names focused methods after their paths, with the platform's own fields", async () => {
    const shortvideo = focusedClient(scraper, "shortvideo");
    expectTypeOf(shortvideo).toEqualTypeOf<FocusedClient<"shortvideo">>();
    expectTypeOf(shortvideo).toHaveProperty("searchSuggestions");
    // @ts-expect-error videosite has no focused operations
    focusedClient(scraper, "videosite");
    // @ts-expect-error the focused operations are a subpath of their own, not a member of the client
    scraper.shortvideo;
    const { data } = await shortvideo.favorites({ handle: "creator" });
    expectTypeOf<(typeof data.aweme_list)[number]["statistics"]["play_count"]>().toEqualTypeOf<number>();
    shortvideo.regions();
    // @ts-expect-error exactly one of handle or unique_id
    shortvideo.reposts({ handle: "creator", unique_id: "creator" });
    // @ts-expect-error favorites needs a body
    shortvideo.favorites();
  });

  it("types error codes from the description", () => {
    expectTypeOf<ScraperApiError["code"]>().toEqualTypeOf<ErrorCode | "GATEWAY_TIMEOUT" | undefined>();
    expectTypeOf<"PROFILE_NOT_FOUND">().toMatchTypeOf<ErrorCode>();
    // @ts-expect-error not a code the description knows
    expectTypeOf<"NOT_A_CODE">().toMatchTypeOf<ErrorCode>();
  });

  it("types the api client from the description's paths", async () => {
    const { data } = await scraperApi(scraper).POST("/scrape/videosite/profile", { body: { username: "creator" } });
    expectTypeOf<NonNullable<typeof data>["data"]["display_name"]>().toEqualTypeOf<string>();
    // @ts-expect-error no such path
    scraperApi(scraper).POST("/scrape/videosite/audience", { body: {} });
  });
});

describe("the hostile-server limits and errors", () => {
  it("takes maxRetryWaitMs and maxResponseBytes; the new errors say what was refused", () => {
    createScraperClient({ maxRetryWaitMs: 60_000, maxResponseBytes: 1024 * 1024 });
    // @ts-expect-error a number of bytes, not a size string
    createScraperClient({ maxResponseBytes: "16MB" });
    expectTypeOf<ScraperRedirectError["refusal"]["reason"]>().toEqualTypeOf<"cross-origin" | "too-many" | "unreadable">();
    expectTypeOf<ScraperRedirectError["refusal"]["toOrigin"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ScraperResponseTooLargeError>().toMatchTypeOf<ScraperResponseError>();
    expectTypeOf<ScraperResponseTooLargeError["tooLarge"]["counted"]>().toEqualTypeOf<"content-length" | "wire" | "decoded">();
  });
});

describe("production jobs", () => {
  it("walks yield typed posts and pages, and expose their state", async () => {
    const walk = scraper.walkPosts("videosite", "creator", { cursor: "c", maxPages: 3, maxCredits: 3, contentType: "video", maxRetries: 1 });
    expectTypeOf(walk.state).toEqualTypeOf<Readonly<WalkState>>();
    expectTypeOf(walk.state.stoppedBecause).toEqualTypeOf<"end" | "maxPages" | "maxCredits" | "aborted" | ScraperError | undefined>();
    for await (const post of walk) expectTypeOf(post).toEqualTypeOf<ListedPost<"videosite">>();
    for await (const page of scraper.walkPages("shortvideo", "creator")) {
      expectTypeOf(page).toEqualTypeOf<PostsPage<"shortvideo">>();
      expectTypeOf(page.items).toEqualTypeOf<Array<ListedPost<"shortvideo">>>();
      expectTypeOf(page.nextCursor).toEqualTypeOf<string | undefined>();
      expectTypeOf(page.response.attempts).toEqualTypeOf<number>();
    }
    // @ts-expect-error contentType exists on videosite walks only
    scraper.walkPosts("shortvideo", "creator", { contentType: "video" });
  });

  it("focused walkers yield the listing's own items", async () => {
    const shortvideo = focusedClient(scraper, "shortvideo");
    for await (const video of shortvideo.walkFavorites({ handle: "creator" })) expectTypeOf(video.aweme_id).toEqualTypeOf<string>();
    for await (const playlist of shortvideo.walkPlaylists({ unique_id: "creator" })) expectTypeOf(playlist.playlist_id).toEqualTypeOf<string>();
    for await (const page of shortvideo.walkRepostsPages({ handle: "creator" }, { maxPages: 2 })) expectTypeOf(page.data.has_more).toEqualTypeOf<boolean>();
    // @ts-expect-error hashtag is not a cursor listing
    shortvideo.walkHashtag;
  });

  it("takes a budget, stores, hooks and per-call options; results carry the response", async () => {
    const typed = createScraperClient({
      budget: { maxCredits: 100, store: memoryBudgetStore() },
      rateLimit: { requestsPerMinute: 120, store: memoryRateLimitStore(), key: "account-1" },
      hooks: [{ onResponse: (event) => expectTypeOf(event.status).toEqualTypeOf<number>() }, { onError: (event) => expectTypeOf(event.error).toEqualTypeOf<Error>() }],
    });
    const { response } = await typed.profile("shortvideo", "creator", { maxRetries: 0, headers: { "x-trace": "1" } });
    expectTypeOf(response).toEqualTypeOf<ResponseInfo>();
    expectTypeOf(typed.withOptions({ timeoutMs: 1000 })).toEqualTypeOf<ScraperClient>();
    expectTypeOf(typed.usage).toEqualTypeOf<ScraperUsage>();
    expectTypeOf<ScraperBudgetError["budget"]["needed"]>().toEqualTypeOf<number>();
    expectTypeOf<ScraperAbortError["inFlight"]>().toEqualTypeOf<boolean>();
    expectTypeOf<ScraperTimeoutError>().toMatchTypeOf<ScraperAbortError>();
    // @ts-expect-error headers are strings
    typed.profile("shortvideo", "creator", { headers: { "x-trace": 1 } });
    // @ts-expect-error the budget needs maxCredits
    createScraperClient({ budget: {} });
  });

  it("any operation by its operationId, typed by the description", async () => {
    const { data } = await callOperation(scraper, "videositeProfile", { username: "creator" });
    expectTypeOf(data.follower_count).toEqualTypeOf<number>();
    // @ts-expect-error the profile request takes a username
    callOperation(scraper, "videositeProfile", { url: "x" });
    // @ts-expect-error no such operation
    callOperation(scraper, "tiktokProfile", {});
    for await (const post of walkOperation(scraper, "microblogPosts", { username: "creator" })) expectTypeOf(post.id).toEqualTypeOf<string>();
    for await (const video of walkOperation(scraper, "shortvideoReposts", { handle: "creator" })) expectTypeOf(video.aweme_id).toEqualTypeOf<string>();
    expectTypeOf<"shortvideoPosts">().toMatchTypeOf<PagedOperationId>();
    // @ts-expect-error a profile is no listing
    walkOperation(scraper, "shortvideoProfile", { username: "creator" });
    expectTypeOf(scraper.withBudget({ maxCredits: 5 })).toEqualTypeOf<ScraperClient>();
  });
});
