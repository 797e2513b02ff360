import { describe, expect, it } from "vitest";
import { type OperationId, validateRequest } from "../src/scraper.js";

// Request bodies accepted and rejected by the reference's rules: the username pattern, exactly one creator identifier on
// the focused creator operations, unknown fields rejected by focused operations and ignored by normalized ones. A
// rejection names where (`path`) and why (`keyword`).

const platforms = ["shortvideo", "photoshare", "videosite", "socialnet", "ephemeral", "microblog", "professional"];
const creatorOperations = ["shortvideoFavorites", "shortvideoReposts", "shortvideoPlaylists"];
const pattern = "^@?[a-zA-Z0-9._-]{1,100}$";

type Rejection = { path: string; keyword: string; message?: string };
type Row = [operationId: string, body: unknown, expected: true | Rejection, why: string];

const usernameRows = (id: string): Row[] => [
  [id, { username: "creator" }, true, "a plain handle"],
  [id, { username: "@creator.name_01-x" }, true, "a leading @ and . _ -"],
  [id, { username: "a".repeat(100) }, true, "100 characters"],
  [id, { username: `@${"a".repeat(100)}` }, true, "@ plus 100 characters"],
  [id, { username: "a".repeat(101) }, { path: "/username", keyword: "pattern" }, "101 characters"],
  [id, { username: "" }, { path: "/username", keyword: "pattern" }, "empty"],
  [id, { username: "@" }, { path: "/username", keyword: "pattern" }, "only @"],
  [id, { username: "@@creator" }, { path: "/username", keyword: "pattern" }, "two @"],
  [id, { username: "creator name" }, { path: "/username", keyword: "pattern", message: `\`username\` must match the pattern ${pattern}` }, "a space"],
  [id, { username: "creator!" }, { path: "/username", keyword: "pattern" }, "a character outside the class"],
  [id, { username: "creator\n" }, { path: "/username", keyword: "pattern" }, "a trailing newline (the pattern is anchored)"],
  [id, { username: 42 }, { path: "/username", keyword: "type", message: "`username` must be a string (got an integer)" }, "not a string"],
  [id, {}, { path: "/username", keyword: "required", message: "`username` is required" }, "missing username"],
  [id, { username: "creator", utm_source: "x" }, true, "an unknown field (normalized endpoints ignore it)"],
];

const rows: Row[] = [
  ...platforms.flatMap((p) => [...usernameRows(`${p}Profile`), ...usernameRows(`${p}Posts`)]),
  ...platforms.flatMap((p): Row[] => [
    [`${p}Posts`, { username: "creator", cursor: "eyJvZmZzZXQiOjMwfQ" }, true, "a cursor passed back verbatim"],
    [`${p}Posts`, { username: "creator", cursor: 30 }, { path: "/cursor", keyword: "type" }, "a numeric cursor"],
    [`${p}Post`, { url: `https://${p}.example/p/1` }, true, "a URL"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, include_transcript: true, include_comments: false }, true, "both flags"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, include_comments: "yes" }, { path: "/include_comments", keyword: "type" }, "a flag that is not a boolean"],
    [`${p}Post`, { include_transcript: true }, { path: "/url", keyword: "required" }, "missing url"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, note: "x" }, true, "an unknown field (ignored)"],
  ]),
  ["videositePosts", { username: "creator", contentType: "video" }, true, "contentType video"],
  ["videositePosts", { username: "creator", contentType: 1 }, { path: "/contentType", keyword: "type" }, "contentType is a string"],
  ["microblogPost", { url: "microblog.example/Creator/status/1862051234567890123?s=20" }, true, "no scheme, with a query"],
  ["shortvideoAudience", { anything: true }, true, "shortvideo audience ignores unknown fields"],
  ...creatorOperations.flatMap((id): Row[] => {
    const exactlyOne = { path: "", keyword: "oneOf", message: "exactly one of `handle` or `unique_id` is required" };
    const unknown = (field: string) => ({ path: `/${field}`, keyword: "additionalProperties", message: `\`${field}\` is not allowed here (unknown field)` });
    return [
      [id, { handle: "creator" }, true, "a handle"],
      [id, { unique_id: "creator" }, true, "a unique_id"],
      [id, { handle: "creator", cursor: "0" }, true, "the starting cursor, the string 0"],
      [id, {}, exactlyOne, "no creator identifier"],
      [id, { handle: "creator", unique_id: "creator" }, exactlyOne, "two creator identifiers"],
      [id, { handle: "creator", cursor: 0 }, { path: "/cursor", keyword: "type" }, "a numeric cursor"],
      [id, { handle: "creator", Cursor: "0" }, unknown("Cursor"), "a misspelled field (focused operations reject it)"],
      [id, { handle: "creator", username: "creator" }, unknown("username"), "an unknown field (focused operations reject it)"],
    ];
  }),
  ["shortvideoHashtag", { hashtag: "streetfood" }, true, "a topic name"],
  ["shortvideoHashtag", {}, { path: "/hashtag", keyword: "required" }, "no topic"],
  ["shortvideoHashtag", { hashtag: "streetfood", tag: "x" }, { path: "/tag", keyword: "additionalProperties" }, "an unknown field"],
  ["shortvideoCollection", { url: "https://shortvideo.example/@creator/collection/Recipes-7301234567890123456" }, true, "a collection URL"],
  ["shortvideoCollection", { url: "7301234567890123456" }, true, "a collection id in the same field"],
  ["shortvideoCollection", { url: "x", id: "1" }, { path: "/id", keyword: "additionalProperties" }, "an unknown field"],
  ["shortvideoSearchSuggestions", { query: "street fo" }, true, "partial search text"],
  ["shortvideoSearchSuggestions", { q: "street fo" }, { path: "/q", keyword: "additionalProperties" }, "a misspelled field"],
  ["shortvideoRegions", {}, true, "an empty object"],
  ["shortvideoRegions", undefined, true, "no body at all (it is optional)"],
  ["shortvideoRegions", { region: "US" }, { path: "/region", keyword: "additionalProperties" }, "any field"],
  ["shortvideoProfile", undefined, { path: "", keyword: "type", message: "The body must be an object (got nothing)" }, "no body at all"],
  ["shortvideoProfile", [{ username: "creator" }], { path: "", keyword: "type", message: "The body must be an object (got an array)" }, "an array"],
];

describe("request bodies follow the reference's rules", () => {
  it.each(rows.map(([id, body, expected, why]) => [`${id} ${expected === true ? "accepts" : "rejects"} ${why}`, id, body, expected] as const))(
    "%s",
    (_name, id, body, expected) => {
      const result = validateRequest(id as OperationId, body);
      if (expected === true) {
        expect(result).toEqual({ valid: true });
        return;
      }
      expect(result.valid).toBe(false);
      expect(result.valid ? [] : result.errors).toContainEqual(expected.message ? expected : expect.objectContaining(expected));
    },
  );

  it("reports every problem of a body at once, each once", () => {
    const result = validateRequest("shortvideoFavorites", { unique_id: 7, cursor: 0, Cursor: "0" });
    expect(result).toEqual({
      valid: false,
      errors: [
        { path: "/Cursor", keyword: "additionalProperties", message: "`Cursor` is not allowed here (unknown field)" },
        { path: "/unique_id", keyword: "type", message: "`unique_id` must be a string (got an integer)" },
        { path: "/cursor", keyword: "type", message: "`cursor` must be a string (got an integer)" },
      ],
    });
  });
});
