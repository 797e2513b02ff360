import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scraperApi } from "../src/api.js";
import { focusedClient } from "../src/focused.js";
import { createScraperClient, ScraperInputError } from "../src/index.js";
import { type FaultServer, ok, rateHeaders, startFaultServer } from "./fault-server.js";

const apiKey = "scrape_live_requests";
let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

const scraper = () => createScraperClient({ apiKey, baseUrl: server.baseUrl, rateLimit: false });
const sent = () => {
  const [request] = server.requests;
  if (!request) throw new Error("nothing was sent");
  return { ...request, json: request.body ? JSON.parse(request.body) : undefined };
};

describe("what the methods send", () => {
  it("profile: POST /scrape/<platform>/profile with the key and { username }; resolves { data, meta }", async () => {
    server.script(ok({ username: "creator", display_name: "Creator", follower_count: 10 }, { charged: 1, remaining: 41 }));
    const { data, meta } = await scraper().profile("microblog", "@Creator");
    const request = sent();
    expect(request).toMatchObject({ method: "POST", path: "/api/v1/scrape/microblog/profile", json: { username: "@Creator" } });
    expect(request.headers["x-api-key"]).toBe(apiKey);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(data).toEqual({ username: "creator", display_name: "Creator", follower_count: 10 });
    expect(meta).toEqual({
      creditsCharged: 1,
      creditsRemaining: 41,
      requestId: "req_ok",
      upstreamCalls: 1,
      rateLimit: { limit: 120, remaining: 119, reset: rateHeaders["x-scraper-ratelimit-reset"] },
    });
  });

  it("posts: the cursor verbatim, contentType on videosite", async () => {
    server.script(ok({ posts: [], profile_pictures: {} }));
    await scraper().posts("videosite", "creator", { cursor: "a+b/c==", contentType: "video" });
    expect(sent().json).toEqual({ username: "creator", cursor: "a+b/c==", contentType: "video" });
  });

  it("post: the URL and both flags in the service's names", async () => {
    server.script(ok({ posts: [{ id: "1", platform: "shortvideo", transcript: null, topComments: null }], profile_pictures: {} }));
    await scraper().post("shortvideo", "https://shortvideo.example/@c/video/1", { includeTranscript: true, includeComments: false });
    expect(sent()).toMatchObject({
      path: "/api/v1/scrape/shortvideo/post",
      json: { url: "https://shortvideo.example/@c/video/1", include_transcript: true, include_comments: false },
    });
  });

  it("audience: a creator string is sent as { username }, an object as given", async () => {
    server.script(ok({}, { charged: 25 }));
    const { meta } = await scraper().audience("photoshare", "creator");
    expect(sent()).toMatchObject({ path: "/api/v1/scrape/photoshare/audience", json: { username: "creator" } });
    expect(meta.creditsCharged).toBe(25);
    await scraper().audience("shortvideo", { username: "creator" });
  });

  it("focused operations: the platform's own field names, and regions without a body", async () => {
    const shortvideo = focusedClient(scraper(), "shortvideo");
    server.script(ok({ unique_id: "creator", cursor: "0", has_more: false, aweme_list: [], user_id: null }));
    await shortvideo.favorites({ handle: "creator", cursor: "0" });
    expect(sent()).toMatchObject({ path: "/api/v1/scrape/shortvideo/favorites", json: { handle: "creator", cursor: "0" } });

    server.script(ok({ total: 1, regions: [{ code: "US", name: "United States" }] }));
    const { data, meta } = await shortvideo.regions();
    expect(sent()).toMatchObject({ path: "/api/v1/scrape/shortvideo/regions", body: "" });
    expect(data.regions[0]?.code).toBe("US");
    expect(meta.creditsCharged).toBe(1);

    server.script(ok({ query: "street fo", region: null, suggestions: [] }));
    await shortvideo.searchSuggestions({ query: "street fo" });
    expect(sent().path).toBe("/api/v1/scrape/shortvideo/search-suggestions");
  });

  it("focused operations go through the client's pipeline: its key, its derived defaults and its ledger", async () => {
    const client = scraper();
    server.script(ok({ total: 0, regions: [] }));
    await focusedClient(client.withOptions({ headers: { "x-trace": "t-2" } }), "shortvideo").regions();
    expect(sent().headers).toMatchObject({ "x-api-key": apiKey, "x-trace": "t-2" });
    expect(client.usage).toMatchObject({ requests: 1, creditsCharged: 1 });
  });

  it("api: a focused path is a documented operation too, billed and retried by its rules", async () => {
    server.script(ok({ total: 0, regions: [] }));
    const client = scraper();
    const { data } = await scraperApi(client).POST("/scrape/shortvideo/regions", {});
    expect(data?.meta.credits_charged).toBe(1);
    expect(client.usage.creditsCharged).toBe(1);
  });

  it.each([
    [undefined, "shortvideo", "client"],
    [{}, "shortvideo", "client"],
    ["client", "shortvideo", "client"],
    ["scraper", "videosite", "platform"],
    ["scraper", "tiktok", "platform"],
  ])("focusedClient(%j, %j) is a ScraperInputError naming %s", (given, platform, field) => {
    const client = given === "scraper" ? scraper() : given;
    expect(() => focusedClient(client as never, platform as never)).toThrow(expect.objectContaining({ name: "ScraperInputError", field }));
  });

  it("a focused operation that needs a body is a ScraperInputError without one, and nothing is sent", () => {
    const shortvideo = focusedClient(scraper(), "shortvideo");
    const before = server.requests.length;
    expect(() => (shortvideo.favorites as (body?: unknown) => unknown)()).toThrow(expect.objectContaining({ field: "body" }));
    expect(() => shortvideo.walkFavorites(null as never)).toThrow(expect.objectContaining({ field: "body" }));
    expect(server.requests.length).toBe(before);
  });

  it("api: the typed openapi-fetch client with the same key", async () => {
    server.script(ok({ username: "creator", display_name: "Creator", follower_count: 10 }));
    const { data, error, response } = await scraperApi(scraper()).POST("/scrape/shortvideo/profile", { body: { username: "creator" } });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.data.follower_count).toBe(10);
    expect(sent().headers["x-api-key"]).toBe(apiKey);
  });

  it("api: a derived client's defaults hold for its api door too", async () => {
    server.script(ok({ username: "creator" }));
    await scraperApi(scraper().withOptions({ headers: { "x-trace": "t-1" } })).POST("/scrape/shortvideo/profile", { body: { username: "creator" } });
    expect(sent().headers["x-trace"]).toBe("t-1");
  });

  it.each([undefined, {}, "scrape_live_key"])("api: scraperApi(%j) is a ScraperInputError naming the client", (given) => {
    expect(() => scraperApi(given as never)).toThrow(expect.objectContaining({ name: "ScraperInputError", field: "client" }));
    expect(() => scraperApi(given as never)).toThrow(ScraperInputError);
  });
});
