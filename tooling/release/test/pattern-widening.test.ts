// A changed `pattern` is benign in a request only where the new one is proven to accept every string the old one did, and
// in a response only where the old one is proven to accept every string the new one does; what is not proven is breaking.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIST_DIR, diffDescriptions } from "../src/api-diff.mjs";
import { applyPatch } from "../src/json-pointer.mjs";
import { patternWidens } from "../src/pattern-widening.mjs";

describe("patternWidens", () => {
  it.each([
    ["^@?[a-zA-Z0-9._-]{1,100}$", "^@?[a-zA-Z0-9._-]{1,200}$", "a higher upper count"],
    ["^[0-9a-f-]{36}$", "^[0-9a-f-]{32,36}$", "a lower lower count"],
    ["^[a-z]{2,8}$", "^[a-z]{2,}$", "no upper count"],
    ["^@?[a-z]+$", "^@*[a-z]*$", "`?` and `+` to `*`"],
    ["^x-[a-z]$", "^x-[a-z]{1,3}$", "a repetition where none was written"],
    ["^(ab){1,2}$", "^(ab){1,3}$", "a group repeated more often"],
    ["^[a-z]{3}$", "^[a-z0-9]{3}$", "a class with more members"],
    ["^[A-Za-z0-9._~-]{43,128}$", "^[\\w.~-]{43,128}$", "a class written with `\\w`"],
    ["^[0-9]+$", "^\\d+$", "the same set written otherwise"],
    ["^\\d+$", "^\\w+$", "a shorthand that accepts more"],
    ["^x\\.y$", "^x.y$", "a literal to `.`"],
    ["^[^ab]+$", "^[^a]+$", "a negated class that refuses less"],
    ["^[a-z]$", "^[^0-9]$", "a class to a negated one that refuses none of its members"],
    ["^[\\x20-\\x7E]+$", "^[\\x20-\\x7E\\u00A0-\\u00FF]+$", "escaped code points"],
    ["^[😀-😂]$", "^[\\u{1F600}-\\u{1F64F}]$", "code points beyond the basic plane"],
    ["^\\p{L}{1,3}$", "^\\p{L}{1,4}$", "a property escape repeated more often"],
  ])("%s → %s: wider (%s)", (before, after) => {
    expect(patternWidens(before, after)).toBe(true);
  });

  it.each([
    ["^@?[a-zA-Z0-9._-]{1,100}$", "^@?[a-zA-Z0-9._-]{1,50}$", "a lower upper count"],
    ["^[a-z]{2,8}$", "^[a-z]{3,8}$", "a higher lower count"],
    ["^@?[a-zA-Z0-9._-]{1,100}$", "^@?[a-zA-Z0-9_-]{1,100}$", "a class with fewer members"],
    ["^.$", "^a$", "`.` to a literal"],
    ["^\\w+$", "^\\d+$", "a shorthand that accepts less"],
    ["^[^a]+$", "^[^ab]+$", "a negated class that refuses more"],
    ["^a{1,2}?$", "^a{1,3}$", "a lazy repetition made greedy (not proven)"],
    ["^(?!admin$)[a-z]{1,10}$", "^(?!admin$)[a-z]{1,20}$", "a negative lookahead, whose refusals widen with it"],
    ["^(?<!x)y{1,2}$", "^(?<!x)y{1,3}$", "a negative lookbehind"],
    ["^\\p{L}$", "^\\p{N}$", "another property escape"],
    ["^[\\p{L}]$", "^[\\p{L}\\d]$", "a class with a property escape (not proven)"],
    ["^ab$", "^ab", "an anchor dropped (not proven, though wider)"],
    ["^(ab)$", "^(?:ab)$", "a capturing group made non-capturing (not proven)"],
    ["^[a-z]+$", "^[a-z]+|[0-9]+$", "an alternative added (not proven)"],
    ["^a{2}$", "^a{,3}$", "a pattern that does not compile with the u flag"],
  ])("%s → %s: not proven wider (%s)", (before, after) => {
    expect(patternWidens(before, after)).toBe(false);
  });
});

describe("the pattern rule", () => {
  const base = JSON.parse(readFileSync(join(DIST_DIR, "platform.json"), "utf8"));
  const judged = (schema: string, pattern: string) => {
    const changes = diffDescriptions(base, applyPatch(base, [{ op: "replace", path: `/components/schemas/${schema}/pattern`, value: pattern }]));
    return [...new Set(changes.filter((c) => c.path.endsWith("/pattern")).map((c) => `${c.type} (${c.rule})`))];
  };
  const verifier = "AuthorizationCodeGrant/properties/code_verifier"; // ^[A-Za-z0-9._~-]{43,128}$, in a request
  const token = "TokenResponse/properties/access_token"; // ^[\x20-\x7E]+$, in a response

  it("passes a request pattern proven wider and flags one that is not", () => {
    expect(judged(verifier, "^[A-Za-z0-9._~-]{43,256}$")).toEqual(["non-breaking (pattern)"]);
    expect(judged(verifier, "^[A-Za-z0-9._~-]{64,128}$")).toEqual(["breaking (pattern)"]);
    expect(judged(verifier, "^(?:[A-Za-z0-9._~-]{43,128})$")).toEqual(["breaking (pattern)"]);
  });

  it("passes a response pattern proven narrower and flags one that is wider or not proven narrower", () => {
    expect(judged(token, "^[\\x21-\\x7E]+$")).toEqual(["non-breaking (pattern)"]);
    expect(judged(token, "^[\\x20-\\x7E\\u00A0-\\u00FF]+$")).toEqual(["breaking (pattern)"]);
    expect(judged(token, "^(?:[\\x21-\\x7E])+$")).toEqual(["breaking (pattern)"]);
  });
});
