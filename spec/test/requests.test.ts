import { describe, expect, it } from "vitest";
import { operations, schemaValidator } from "./load.js";

// Request bodies accepted and rejected, derived from the reference's rules (sections 4.1, 4.2 and 4.4).
const { document, validate } = schemaValidator("scraper");
const byId = new Map(operations(document).map(({ operation }) => [operation.operationId, operation]));

function requestSchema(operationId: string): unknown {
  const operation = byId.get(operationId);
  if (!operation) throw new Error(`no operation ${operationId}`);
  return operation.requestBody?.content["application/json"]?.schema;
}

const platforms = ["shortvideo", "photoshare", "videosite", "socialnet", "ephemeral", "microblog", "professional"];
const creatorOperations = ["shortvideoFavorites", "shortvideoReposts", "shortvideoPlaylists"];

type Row = [operationId: string, body: unknown, accepted: boolean, why: string];

const usernameRows = (operationId: string): Row[] => [
  [operationId, { username: "creator" }, true, "a plain handle"],
  [operationId, { username: "@creator.name_01-x" }, true, "a leading @ and . _ -"],
  [operationId, { username: "a".repeat(100) }, true, "100 characters"],
  [operationId, { username: `@${"a".repeat(100)}` }, true, "@ plus 100 characters"],
  [operationId, { username: "a".repeat(101) }, false, "101 characters"],
  [operationId, { username: "" }, false, "empty"],
  [operationId, { username: "@" }, false, "only @"],
  [operationId, { username: "@@creator" }, false, "two @"],
  [operationId, { username: "creator name" }, false, "a space"],
  [operationId, { username: "creator!" }, false, "a character outside the class"],
  [operationId, { username: "creator\n" }, false, "a trailing newline (the pattern is anchored)"],
  [operationId, { username: 42 }, false, "not a string"],
  [operationId, {}, false, "missing username"],
  [operationId, { username: "creator", utm_source: "x" }, true, "an unknown field is ignored by normalized endpoints"],
];

const rows: Row[] = [
  ...platforms.flatMap((p) => [...usernameRows(`${p}Profile`), ...usernameRows(`${p}Posts`)]),
  ...platforms.flatMap((p): Row[] => [
    [`${p}Posts`, { username: "creator", cursor: "eyJvZmZzZXQiOjMwfQ" }, true, "a cursor passed back verbatim"],
    [`${p}Posts`, { username: "creator", cursor: 30 }, false, "a numeric cursor"],
    [`${p}Post`, { url: `https://${p}.example/p/1` }, true, "a URL"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, include_transcript: true, include_comments: false }, true, "both flags"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, include_comments: "yes" }, false, "a flag that is not a boolean"],
    [`${p}Post`, { include_transcript: true }, false, "missing url"],
    [`${p}Post`, { url: `https://${p}.example/p/1`, note: "x" }, true, "an unknown field is ignored"],
  ]),
  ["videositePosts", { username: "creator", contentType: "video" }, true, "contentType video switches to longform"],
  ["videositePosts", { username: "creator", contentType: 1 }, false, "contentType is a string"],
  ["microblogPost", { url: "microblog.example/Creator/status/1862051234567890123?s=20" }, true, "no scheme, with a query"],
  ["shortvideoAudience", { anything: true }, true, "shortvideo audience ignores unknown fields (its fields are not shown)"],
  ...creatorOperations.flatMap((id): Row[] => [
    [id, { handle: "creator" }, true, "a handle"],
    [id, { unique_id: "creator" }, true, "a unique_id"],
    [id, { handle: "creator", cursor: "0" }, true, "the starting cursor, the string 0"],
    [id, {}, false, "no creator identifier"],
    [id, { handle: "creator", unique_id: "creator" }, false, "two creator identifiers"],
    [id, { handle: "creator", cursor: 0 }, false, "a numeric cursor"],
    [id, { handle: "creator", Cursor: "0" }, false, "a misspelled field is rejected by focused operations"],
    [id, { handle: "creator", username: "creator" }, false, "an unknown field is rejected by focused operations"],
  ]),
  ["shortvideoHashtag", { hashtag: "streetfood" }, true, "a topic name"],
  ["shortvideoHashtag", {}, false, "no topic"],
  ["shortvideoHashtag", { hashtag: "streetfood", tag: "x" }, false, "an unknown field"],
  ["shortvideoCollection", { url: "https://shortvideo.example/@creator/collection/Recipes-7301234567890123456" }, true, "a collection URL"],
  ["shortvideoCollection", { url: "7301234567890123456" }, true, "a collection id in the same field"],
  ["shortvideoCollection", { url: "x", id: "1" }, false, "an unknown field"],
  ["shortvideoSearchSuggestions", { query: "street fo" }, true, "partial search text"],
  ["shortvideoSearchSuggestions", { q: "street fo" }, false, "a misspelled field"],
  ["shortvideoRegions", {}, true, "an empty object"],
  ["shortvideoRegions", { region: "US" }, false, "any field"],
];

describe("request bodies follow the reference's rules", () => {
  it.each(rows.map(([id, body, accepted, why]) => [`${id}: ${accepted ? "accepts" : "rejects"} ${why}`, id, body, accepted] as const))(
    "%s",
    (_name, operationId, body, accepted) => {
      expect(validate(requestSchema(operationId), body).valid).toBe(accepted);
    },
  );

  it("lets the regions body be omitted and requires a body everywhere else", () => {
    for (const [id, operation] of byId) {
      expect(operation.requestBody?.required ?? false, id).toBe(id !== "shortvideoRegions");
    }
  });

  it("keeps the photoshare audience open but documents that it rejects unknown fields", () => {
    const operation = byId.get("photoshareAudience");
    expect(operation?.["x-unknown-fields"]).toBe("reject");
    expect(validate(requestSchema("photoshareAudience"), { any: 1 }).valid).toBe(true);
  });
});
