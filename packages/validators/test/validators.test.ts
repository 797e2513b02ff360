import { describe, expect, it } from "vitest";
import { combineSurfaces } from "../src/core.js";
import * as entry from "../src/index.js";
import * as scraper from "../src/scraper.js";
import { readSpec } from "./support.js";

// Which schema applies (status, range, default, media type), what throws, and how errors read.

const examples = (readSpec("scraper.json").components as { examples: Record<string, { value: unknown }> }).examples;
const example = <T = Record<string, unknown>>(name: string) => structuredClone(examples[name]?.value) as T;
type Page = { data: { posts: Array<Record<string, unknown>>; profile_pictures: unknown } };

describe("which documented response applies", () => {
  const { validateResponse } = scraper;

  it("takes the status as a number or a string", () => {
    expect(validateResponse("shortvideoPosts", 200, example("ShortvideoPosts"))).toEqual({ valid: true });
    expect(validateResponse("shortvideoPosts", "200", example("ShortvideoPosts"))).toEqual({ valid: true });
    expect(validateResponse("shortvideoPosts", 404, example("ProfileNotFound"))).toEqual({ valid: true });
  });

  it("falls back to default for an undocumented status, and validates against it", () => {
    expect(validateResponse("shortvideoPosts", 503, example("SystemBusy"))).toEqual({ valid: true });
    expect(validateResponse("shortvideoPosts", "default", example("SystemBusy"))).toEqual({ valid: true });
    expect(validateResponse("shortvideoPosts", 503, { error: "SCRAPER_SYSTEM_BUSY" })).toMatchObject({
      valid: false,
      errors: [
        { path: "/message", keyword: "required" },
        { path: "/request_id", keyword: "required" },
      ],
    });
  });

  it("uses the exact status before default: a 404 body is not a 200 body", () => {
    expect(validateResponse("shortvideoPosts", 404, example("ShortvideoPosts")).valid).toBe(false);
    expect(validateResponse("shortvideoProfile", 404, example("PostNotFound"))).toMatchObject({
      valid: false,
      errors: [{ path: "/error", keyword: "const", message: "`error` must be PROFILE_NOT_FOUND" }],
    });
  });

  it("reads the bare text/plain 504 from a string body, JSON otherwise, or the content type given", () => {
    const text = examples.GatewayTimeoutText?.value;
    expect(typeof text).toBe("string");
    expect(validateResponse("shortvideoPosts", 504, text)).toEqual({ valid: true });
    expect(validateResponse("shortvideoPosts", 504, example("UpstreamTimeout"))).toEqual({ valid: true });
    expect(validateResponse("shortvideoPosts", 504, text, { contentType: "application/json" })).toMatchObject({ valid: false, errors: [{ path: "", keyword: "type" }] });
    expect(validateResponse("shortvideoPosts", 504, text, { contentType: "text/plain; charset=utf-8" })).toEqual({ valid: true });
    // A string is JSON where the response documents no text/plain.
    expect(validateResponse("shortvideoPosts", 500, "Internal Server Error")).toMatchObject({
      valid: false,
      errors: [{ path: "", keyword: "type", message: "The body must be an object (got a string)" }],
    });
  });

  it("throws, naming it, on an unknown operationId, a malformed status or an undocumented media type", () => {
    // @ts-expect-error: not an operationId of the scraper
    expect(() => validateResponse("shortvideoProfil", 200, {})).toThrow(/Unknown operationId "shortvideoProfil"/);
    // @ts-expect-error: not an operationId of the scraper
    expect(() => scraper.validateRequest("constructor", {})).toThrow(/Unknown operationId "constructor"/);
    for (const status of [2000, 42, "20", "2xxx", "ok", ""]) {
      expect(() => validateResponse("shortvideoProfile", status, {})).toThrow(`"${status}" is not an HTTP status`);
    }
    expect(() => validateResponse("shortvideoProfile", 504, "x", { contentType: "text/html" })).toThrow(
      "shortvideoProfile (scraper) 504 response documents no text/html body (documented: application/json, text/plain)",
    );
    expect(() => scraper.validateRequest("shortvideoProfile", "username=creator", { contentType: "application/x-www-form-urlencoded" })).toThrow(
      /documents no application\/x-www-form-urlencoded body/,
    );
  });
});

describe("error messages", () => {
  const { validateResponse } = scraper;

  it("name the field and what was expected", () => {
    const profile = example<{ data: Record<string, unknown> }>("ShortvideoProfile");
    profile.data.follower_count = "12";
    delete profile.data.username;
    const result = validateResponse("shortvideoProfile", 200, profile);
    expect(result.valid ? [] : result.errors).toEqual([
      { path: "/data/username", keyword: "required", message: "`data.username` is required" },
      { path: "/data/follower_count", keyword: "type", message: "`data.follower_count` must be an integer (got a string)" },
    ]);
  });

  it("list the tokens an enum allows", () => {
    const page = example<Page>("ShortvideoPosts");
    Object.assign(page.data.posts[1] ?? {}, { platform: "tiktok" });
    expect(validateResponse("shortvideoPosts", 200, page)).toEqual({
      valid: false,
      errors: [
        {
          path: "/data/posts/1/platform",
          keyword: "enum",
          message: "`data.posts[1].platform` must be one of shortvideo, photoshare, videosite, socialnet, ephemeral, microblog, professional",
        },
      ],
    });
  });

  it("point into arrays, and say what must not be there", () => {
    const page = example<Page>("ShortvideoPosts");
    Object.assign(page.data.posts[0] ?? {}, { transcript: "words", views: -1, uploadedAtFormatted: "yesterday", thumbnail: "not a uri" });
    const result = validateResponse("shortvideoPosts", 200, page);
    expect(result.valid ? [] : result.errors).toEqual([
      { path: "/data/posts/0/views", keyword: "minimum", message: "`data.posts[0].views` must be at least 0" },
      { path: "/data/posts/0/uploadedAtFormatted", keyword: "format", message: "`data.posts[0].uploadedAtFormatted` must be an RFC 3339 date-time" },
      { path: "/data/posts/0/thumbnail", keyword: "format", message: "`data.posts[0].thumbnail` must be an absolute URI" },
      { path: "/data/posts/0/transcript", keyword: "not", message: "`data.posts[0].transcript` must not be present" },
    ]);
  });

  it("escape keys in paths and report each problem once, though allOf branches repeat a constraint", () => {
    const result = validateResponse("shortvideoPosts", 200, { data: [], "a/b~c": 1 });
    expect(result.valid ? [] : result.errors).toEqual([
      { path: "/request_id", keyword: "required", message: "`request_id` is required" },
      { path: "/upstream_calls", keyword: "required", message: "`upstream_calls` is required" },
      { path: "/meta", keyword: "required", message: "`meta` is required" },
      { path: "/data", keyword: "type", message: "`data` must be an object (got an array)" },
    ]);
  });
});

describe("the package entry", () => {
  it("dispatches on the operationId over every surface and exposes each surface as a namespace", () => {
    // Every surface's operationIds, less the ones two surfaces share (the platform and legacy metrics history).
    const all = [scraper, entry.platform, entry.platformLegacy, entry.connect].flatMap((surface) => [...surface.operationIds]);
    expect([...entry.operationIds].sort()).toEqual(all.filter((id) => id !== "getPostMetricsHistory").sort());
    expect(entry.validateResponse("shortvideoPosts", 200, example("ShortvideoPosts"))).toEqual({ valid: true });
    expect(entry.isRequest("shortvideoProfile", { username: "creator" })).toBe(true);
    expect(entry.scraper.validateRequest("shortvideoProfile", {})).toMatchObject({ valid: false });
    // @ts-expect-error: not an operationId of any surface
    expect(() => entry.validateRequest("listWebhooks", {})).toThrow(
      'Unknown operationId "listWebhooks": no description (scraper, platform, platform-legacy, connect) has such an operation',
    );
  });

  it("throws on an operationId that two surfaces document, pointing at their own modules", () => {
    const both = combineSurfaces<scraper.ScraperOperations>({ scraper, "scraper-copy": scraper });
    expect(both.operationIds).toEqual([]);
    expect(() => both.validateRequest("shortvideoProfile", { username: "creator" })).toThrow(
      'operationId "shortvideoProfile" is ambiguous (documented by scraper and scraper-copy): use @content-scraper/validators/scraper or @content-scraper/validators/scraper-copy',
    );
  });
});
