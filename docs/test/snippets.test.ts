// The guides' snippets run against the partner sandbox, as an integrator would run them: the scripts with the
// environment the quick start sets, the OAuth guide's functions through the whole flow. The build type-checks them;
// this shows they also work, and that the outputs their comments promise are what they print.
import { readdir, readFile } from "node:fs/promises";
import { format } from "node:util";
import { createPlatformClient } from "@content-scraper/platform";
import { platformTokens, type RunningMock, startMock } from "@content-scraper/mock";
import type { TokenSet } from "@content-scraper/platform/oauth";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { promisedOutput } from "../scripts/pages.mjs";
import { docsDir } from "../scripts/site.mjs";
import { startAuthorization } from "../snippets/oauth-authorize.js";
import { createInvoiceOnce } from "../snippets/oauth-idempotency.js";
import { countDeliveries, listAll } from "../snippets/oauth-list.js";
import { register } from "../snippets/oauth-register.js";
import { nextStep, platformFor } from "../snippets/oauth-requests.js";
import { disconnect, finishAuthorization } from "../snippets/oauth-tokens.js";

const snippetsDir = `${docsDir}snippets`;
let mock: RunningMock;

beforeAll(async () => {
  // The default seed: the answers the reader's own sandbox gives.
  mock = await startMock({ port: 0, timeScale: 0 });
});
afterAll(() => mock?.close());

/** Snippets that run as scripts (no exports): the scraper guides'. The others are modules of functions, run below. */
async function scripts(): Promise<string[]> {
  const files = (await readdir(snippetsDir)).filter((file) => file.endsWith(".ts")).sort();
  const sources = await Promise.all(files.map(async (file) => [file, await readFile(`${snippetsDir}/${file}`, "utf8")] as const));
  return sources.filter(([, source]) => !/^export /m.test(source)).map(([file]) => file.slice(0, -3));
}


describe.each(await scripts())("snippet %s", (name) => {
  it("runs to the end against the sandbox without an error, printing what its comments say", async () => {
    vi.stubEnv("SCRAPER_BASE_URL", mock.baseUrls.scraper);
    vi.stubEnv("SCRAPER_API_KEY", `scrape_live_docs_${name.replace(/\W/g, "_")}`);
    const printed: string[] = [];
    const errors: string[] = [];
    const spies = [
      vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void printed.push(format(...args))),
      vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(format(...args))),
      // A client's `logger: console` reports its attempts here: not the snippet's output.
      ...(["debug", "info", "warn"] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => {})),
    ];
    try {
      await import(`../snippets/${name}.ts`);
    } finally {
      for (const spy of spies) spy.mockRestore();
      vi.unstubAllEnvs();
    }
    // The snippets print failures with console.error: against the sandbox, none may happen.
    expect(errors).toEqual([]);
    expect(printed.length, "the snippet printed nothing").toBeGreaterThan(0);
    const expected = promisedOutput(await readFile(`${snippetsDir}/${name}.ts`, "utf8"));
    expect(printed.filter((line) => expected.includes(line)), `printed: ${printed.join(" / ")}`).toEqual(expected);
  });
});

describe("the OAuth guide's snippets", () => {
  const redirectUri = "https://app.acme.example/oauth/callback";

  it("register, authorize, exchange the code, call, list, write once and disconnect", async () => {
    const { server, client } = await register(mock.url, redirectUri, { allowInsecureRequests: true });
    const { url, pending } = await startAuthorization(server, client.clientId, redirectUri);
    // The sandbox consents at once: the browser would be redirected to your redirect_uri.
    const consent = await fetch(url, { redirect: "manual" });
    expect(consent.status).toBe(302);
    const tokens = await finishAuthorization(server, client, redirectUri, consent.headers.get("location") as string, pending);
    const saved: TokenSet[] = [];
    const platform = platformFor(mock.baseUrls.platform, { server, client, tokens }, async (next) => void saved.push(next));

    const count = await countDeliveries(platform, "wh_1");
    const listed: unknown[] = [];
    for await (const delivery of listAll(platform, "/webhooks/wh_1/deliveries")) listed.push(delivery);
    expect(listed).toHaveLength(count);

    const first = await createInvoiceOnce(platform, { note: "docs" }, "docs-invoice-0001");
    const replay = await createInvoiceOnce(platform, { note: "docs" }, "docs-invoice-0001");
    expect(replay.data).toEqual(first.data);
    const conflict = await createInvoiceOnce(platform, { note: "changed" }, "docs-invoice-0001").catch((error: unknown) => error);
    expect(nextStep(conflict)).toMatch(/Idempotency-Key was used with another body/);

    await disconnect(server, client, tokens);
    expect(saved).toEqual([]); // a fresh token needs no refresh
  });

  it("nextStep says what to do about the sandbox's magic tokens", async () => {
    const answer = (accessToken: string) =>
      createPlatformClient({ baseUrl: mock.baseUrls.platform, accessToken })
        .getPostMetricsHistory("post_1")
        .catch((error: unknown) => nextStep(error));
    expect(await answer(platformTokens.noSubscription)).toMatch(/renew/);
    expect(await answer(platformTokens.insufficientScope)).toMatch(/authorize again, asking for posts:read/);
    expect(await answer(platformTokens.expired)).toMatch(/refresh the token/);
  });
});
