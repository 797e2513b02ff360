import { describe, expect, it } from "vitest";
import { bearerChallenge, parseChallenges } from "../src/challenge.js";

describe("parseChallenges (RFC 9110 §11.6.1)", () => {
  it("reads the example the description gives", () => {
    expect(
      parseChallenges('Bearer error="insufficient_scope", scope="payouts:write", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"'),
    ).toEqual([
      {
        scheme: "Bearer",
        params: { error: "insufficient_scope", scope: "payouts:write", resource_metadata: "https://api.example.com/.well-known/oauth-protected-resource" },
      },
    ]);
  });

  it("reads several challenges, telling a parameter from the next scheme by its '='", () => {
    expect(parseChallenges('Basic realm="simple", Newauth realm="apps", type=1, title="Login to \\"apps\\"", Bearer')).toEqual([
      { scheme: "Basic", params: { realm: "simple" } },
      { scheme: "Newauth", params: { realm: "apps", type: "1", title: 'Login to "apps"' } },
      { scheme: "Bearer", params: {} },
    ]);
  });

  it("reads token68 (with padding), bare schemes and empty list elements", () => {
    expect(parseChallenges(" , Negotiate a87421000492aa874209af8bc028==, ,Basic")).toEqual([
      { scheme: "Negotiate", params: {}, token68: "a87421000492aa874209af8bc028==" },
      { scheme: "Basic", params: {} },
    ]);
  });

  it("allows whitespace around '=' and commas, lowercases parameter names, keeps the first of a repeated one", () => {
    expect(parseChallenges('Bearer  Realm = "x" ,error=invalid_token,\terror="again"')).toEqual([
      { scheme: "Bearer", params: { realm: "x", error: "invalid_token" } },
    ]);
  });

  it("keeps commas and escaped characters inside quoted strings", () => {
    expect(parseChallenges('Bearer error_description="a, b=c \\\\ d", scope="a:read b:write"')[0]?.params).toEqual({
      error_description: "a, b=c \\ d",
      scope: "a:read b:write",
    });
  });

  it("is lenient: stops at a malformed part and keeps what it read", () => {
    expect(parseChallenges('Bearer error="unterminated')).toEqual([{ scheme: "Bearer", params: {} }]);
    expect(parseChallenges("Bearer error=a b")).toEqual([{ scheme: "Bearer", params: { error: "a" } }]);
    expect(parseChallenges('Bearer"x", Basic')).toEqual([{ scheme: "Bearer", params: {} }]);
    expect(parseChallenges("Bearer error= ,x")).toEqual([{ scheme: "Bearer", params: {}, token68: "error=" }, { scheme: "x", params: {} }]);
    expect(parseChallenges('"quoted" Bearer')).toEqual([]);
    expect(parseChallenges("")).toEqual([]);
  });
});

describe("bearerChallenge", () => {
  it("reads error, scope, resource_metadata (RFC 6750, RFC 9728) from the Bearer challenge, whatever its case", () => {
    const challenge = bearerChallenge('DPoP algs="ES256", bearer error="invalid_token", scope="campaigns:read posts:read", resource_metadata="https://h/.well-known/oauth-protected-resource", error_description="expired"');
    expect(challenge).toMatchObject({
      scheme: "bearer",
      error: "invalid_token",
      errorDescription: "expired",
      scope: "campaigns:read posts:read",
      scopes: ["campaigns:read", "posts:read"],
      resourceMetadata: "https://h/.well-known/oauth-protected-resource",
      realm: undefined,
    });
  });

  it("is undefined without a header or a Bearer challenge", () => {
    expect(bearerChallenge(null)).toBeUndefined();
    expect(bearerChallenge('Basic realm="x"')).toBeUndefined();
  });
});
