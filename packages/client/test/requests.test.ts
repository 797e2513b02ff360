import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scraperApi } from "../src/api.js";
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
    server.script(ok({ unique_id: "creator", cursor: "0", has_more: false, aweme_list: [], user_id: null }));
    await scraper().shortvideo.favorites({ handle: "creator", cursor: "0" });
    expect(sent()).toMatchObject({ path: "/api/v1/scrape/shortvideo/favorites", json: { handle: "creator", cursor: "0" } });

    server.script(ok({ total: 1, regions: [{ code: "US", name: "United States" }] }));
    const { data } = await scraper().shortvideo.regions();
    expect(sent()).toMatchObject({ path: "/api/v1/scrape/shortvideo/regions", body: "" });
    expect(data.regions[0]?.code).toBe("US");

    server.script(ok({ query: "street fo", region: null, suggestions: [] }));
    await scraper().shortvideo.searchSuggestions({ query: "street fo" });
    expect(sent().path).toBe("/api/v1/scrape/shortvideo/search-suggestions");
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
