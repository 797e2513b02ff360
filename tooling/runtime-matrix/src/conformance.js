// The conformance script of the runtime matrix: the same calls on every runtime the SDK supports (Node 20, 22, 24,
// Deno, Bun, workerd, a Chromium page and a Chromium Web Worker), each case reduced to a small outcome that the test
// compares across runtimes. Plain JavaScript that imports the packages by name, as an integrator's script would: run
// as it is on Node, Deno and Bun from a folder where the packages were installed, bundled by esbuild for the rest.
import { createScraperClient } from "@content-scraper/client";
import { createConnectClient } from "@content-scraper/connect";
import { createPlatformClient } from "@content-scraper/platform";
import { authorizationUrl, discover, exchangeCode, registerClient } from "@content-scraper/platform/oauth";

/**
 * @typedef {object} Targets where the script's calls go
 * @property {string} sandbox the sandbox's origin (`startMock`'s `url`)
 * @property {{ scraper: string, platform: string, connect: string }} baseUrls the sandbox's base URLs
 * @property {string} hostile the origin of the hostile server: `/stall/…` sends headers and then nothing, `/nothing/…` a
 *   gzip body that never ends and decodes to nothing
 * @property {boolean} browser whether this runs in a browser (a page or a worker), where a client needs `dangerouslyAllowBrowser`
 */

/**
 * What an error says, for comparison across runtimes: its class, and the fields the cases look at.
 * @param {any} error
 */
function described(error) {
  const { name, code, field, status, inFlight, timeoutMs, tooLarge, billed } = /** @type {Record<string, any>} */ (error ?? {});
  const cause = error?.cause instanceof Error ? `${error.cause.name}: ${error.cause.message}` : undefined;
  return { error: name, code, field, status, inFlight, timeoutMs, counted: tooLarge?.counted, bytes: tooLarge?.bytes, billed, cause };
}

/**
 * Runs every case and answers `{ [case]: outcome }`; an outcome carries `ms`, the time the case took.
 * @param {Targets} targets
 */
export async function conformance({ sandbox, baseUrls, hostile, browser }) {
  /** @type {Record<string, Record<string, unknown>>} */
  const results = {};
  // A case resolves to what it reports (a call that should have failed resolves to its result, which the test refuses).
  const run = async (/** @type {string} */ name, /** @type {() => Promise<object>} */ work) => {
    const started = Date.now();
    let outcome;
    try {
      outcome = await work();
    } catch (error) {
      outcome = described(error);
    }
    results[name] = { ...outcome, ms: Date.now() - started };
  };
  const allow = browser ? { dangerouslyAllowBrowser: true } : {};
  const scraper = (/** @type {Record<string, unknown>} */ extra = {}) =>
    createScraperClient({ apiKey: "scrape_live_matrix", baseUrl: baseUrls.scraper, retry: { maxRetries: 0 }, ...allow, ...extra });
  const stalled = (/** @type {string} */ basePath) => `${hostile}/stall${basePath}`;

  await run("backend only", async () => {
    try {
      createScraperClient({ apiKey: "scrape_live_matrix", baseUrl: baseUrls.scraper });
      return { refused: false };
    } catch (error) {
      return { refused: true, ...described(error) };
    }
  });
  await run("profile", async () => {
    const { data, meta } = await scraper().profile("shortvideo", "maya.bakes");
    return { username: data.username, credits: meta.creditsCharged };
  });
  await run("a three-page walk", async () => {
    const walk = scraper().walkPosts("shortvideo", "maya.bakes", { maxPages: 3 });
    const ids = [];
    for await (const post of walk) ids.push(post.id);
    return { pages: walk.state.pages, posts: ids.length, unique: new Set(ids).size, credits: walk.state.creditsCharged };
  });
  await run("402", () => createScraperClient({ apiKey: "scrape_live_empty", baseUrl: baseUrls.scraper, ...allow }).profile("shortvideo", "creator"));
  await run("404", () => scraper().profile("shortvideo", "notfound"));
  await run("a stalled body", () => scraper({ baseUrl: stalled("/api/v1"), timeoutMs: 1000 }).profile("shortvideo", "creator"));
  await run("an endless compressed body", () =>
    scraper({ baseUrl: `${hostile}/nothing/api/v1`, timeoutMs: 5000, maxResponseBytes: 256 * 1024 }).profile("shortvideo", "creator"),
  );
  await run("an abort", () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("enough")), 300);
    return scraper({ baseUrl: stalled("/api/v1") }).profile("shortvideo", "creator", { signal: controller.signal });
  });
  await run("connect", async () => {
    const client = createConnectClient({ apiKey: "sk_test_matrix", baseUrl: baseUrls.connect, ...allow });
    return { environment: client.environment, ...(await client.request("GET", "/accounts").catch(described)) };
  });
  await run("connect, a stalled body", () =>
    createConnectClient({ apiKey: "sk_test_matrix", baseUrl: stalled("/api/embed"), timeoutMs: 1000, ...allow }).request("GET", "/accounts"),
  );
  await run("platform", async () => {
    const { data } = await createPlatformClient({ baseUrl: baseUrls.platform, accessToken: "matrix-token" }).listWebhookDeliveries("wh_1");
    return { items: data.data.length, hasMore: data.hasMore, nextCursor: typeof data.nextCursor };
  });
  await run("OAuth, a stalled discovery", () => discover(hostile, { allowInsecureRequests: true, timeoutMs: 1000 }));
  await run("platform, a stalled body", () =>
    createPlatformClient({ baseUrl: stalled("/api/oauth/v1"), accessToken: "matrix-token", timeoutMs: 1000 }).listWebhookDeliveries("wh_1"),
  );
  // A browser follows the authorization redirect itself (the docs' test runs the flow in a page); elsewhere the
  // script reads the redirect, as a backend's callback handler would receive it.
  if (!browser) {
    await run("OAuth PKCE", async () => {
      const redirectUri = `${sandbox}/__sandbox/oauth/callback`;
      const server = await discover(sandbox, { allowInsecureRequests: true });
      const client = await registerClient({ server, metadata: { client_name: "matrix", redirect_uris: [redirectUri], grant_types: ["authorization_code"], response_types: ["code"] } });
      const request = await authorizationUrl({ server, clientId: client.clientId, redirectUri, scope: "posts:read" });
      const callbackUrl = (await fetch(request.url, { redirect: "manual" })).headers.get("location") ?? "";
      const tokens = await exchangeCode({ server, clientId: client.clientId, callbackUrl, expectedState: request.state, codeVerifier: request.codeVerifier, redirectUri });
      return { tokenType: tokens.tokenType, expiresIn: tokens.expiresIn };
    });
  }
  return results;
}
