// A web page open in the sandbox owner's browser attacks the sandbox running on their machine: real Chromium, a page
// served from another origin (`http://evil.example:<port>`, which the browser resolves to loopback), and every way a
// page can send a request without the owner's say: fetch with a CORS-simple `text/plain` body, fetch with JSON (which
// needs a preflight), form POSTs (a `text/plain` form can carry a JSON object), and reads of the log and the clock. Then
// DNS rebinding: the attacker's name resolving to 127.0.0.1, so the page's own origin is the sandbox's port.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { controlPath, type RunningMock } from "../src/index.js";
import { call, freshKey, operations, start } from "./support.js";

let mock: RunningMock;
let attacker: Server;
let evil: string;
let browser: Browser;
let page: Page;

/** The attacker's site: an empty page, and a page that submits a form to the sandbox as soon as it loads. */
function attackerSite(): Promise<Server> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://evil.example");
    if (url.pathname !== "/form") return void response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>evil</title>");
    const [name, value] = [url.searchParams.get("name") ?? "", url.searchParams.get("value") ?? ""];
    const attribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
    const form = `<form method="POST" enctype="${attribute(url.searchParams.get("enctype") ?? "text/plain")}" action="${attribute(url.searchParams.get("action") ?? "")}">
      <input name="${attribute(name)}" value="${attribute(value)}"></form><script>document.forms[0].submit()</script>`;
    response.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>evil form</title>${form}`);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

const victim = freshKey("victim");
const profile = () => call(mock, operations.shortvideoProfile.path, { username: "creator" }, { key: victim });

beforeAll(async () => {
  mock = await start({ credits: 100 });
  attacker = await attackerSite();
  evil = `http://evil.example:${(attacker.address() as AddressInfo).port}`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      // The attacker's name, as its DNS would answer for a page on the owner's machine.
      "--host-resolver-rules=MAP evil.example 127.0.0.1",
    ],
  });
  page = await browser.newPage();
  // The owner's state, which the attacks must leave as it is: a balance of 500, one call made (499 left), one log entry.
  await mock.setBalance(victim, 500);
  expect((await profile()).body.meta.credits_remaining).toBe(499);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await mock?.close();
});

/** What the owner's sandbox holds after the attacks: the victim's next call, the faults, the clock, the log. */
async function ownerState() {
  return {
    faults: await mock.faults(),
    advanced: (await mock.clock()).advancedSeconds,
    logged: (await mock.log({ operation: "shortvideoProfile" })).length,
    remaining: (await profile()).body.meta.credits_remaining,
  };
}

// What the attacks try: [what it does, path, body].
const writes: [string, string, object][] = [
  ["sets the victim's balance", "/balance", { key: victim, credits: 1_000_000 }],
  ["injects a fault", "/faults", { operation: "shortvideoProfile", status: 500, count: 5 }],
  ["moves the clock", "/clock/advance", { seconds: 1e9 }],
  ["resets everything", "/reset", {}],
];

/** Sends a request from the attacker's page and says what the page saw: `refused: …`, `answered <status>: <body>`, or opaque. */
const fromPage = (url: string, init: RequestInit) =>
  page.evaluate(
    ({ url, init }) =>
      fetch(url, init).then(
        async (response) => `answered ${response.status}${response.type === "opaque" ? " (opaque)" : `: ${await response.text()}`}`,
        (error: Error) => `refused: ${error.message}`,
      ),
    { url, init },
  );

/** Submits a form from the attacker's page (a form sets no content type of its own) and says what the answer page shows. */
async function submitForm(action: string, enctype: string, body: object): Promise<string> {
  // enctype=text/plain sends `name=value`: a name ending in `"` and a value starting with it make a JSON object.
  const json = JSON.stringify({ ...body, pad: "" });
  const query = new URLSearchParams({ action, enctype, name: json.slice(0, -2), value: json.slice(-2) });
  const submitted = page.waitForURL((url) => url.href.startsWith(action), { timeout: 10_000 });
  await page.goto(`${evil}/form?${query}`);
  await submitted;
  return `answer page: ${await page.evaluate(() => document.body.textContent)}`;
}

const attacks: Record<string, (url: string, body: object) => Promise<string>> = {
  // No preflight: a CORS-simple request, sent whatever the answer's headers say; the page cannot read the answer.
  "fetch with a text/plain body": (url, body) => fromPage(url, { method: "POST", mode: "no-cors", headers: { "content-type": "text/plain" }, body: JSON.stringify(body) }),
  "fetch with a JSON body (preflighted)": (url, body) => fromPage(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
  "a text/plain form carrying JSON": (url, body) => submitForm(url, "text/plain", body),
  "a urlencoded form": (url, body) => submitForm(url, "application/x-www-form-urlencoded", body),
};

// Refused by the browser (no CORS header; the preflight refused), sent blind (opaque), or answered with a refusal.
const refused = /^refused: |\(opaque\)$|^answer page: \{"error":\{"message":"The control API (answers only requests from its own origin|takes JSON bodies only)/;

describe.each(writes)("a page on another origin that %s", (_name, path, body) => {
  it.each(Object.keys(attacks))("by %s is refused, and the owner's state stays as it was", async (how) => {
    await page.goto(`${evil}/`);
    const before = await ownerState();
    const outcome = await (attacks[how] as (url: string, body: object) => Promise<string>)(`${mock.url}${controlPath}${path}`, body);
    expect(outcome).toMatch(refused);
    expect(await ownerState()).toEqual({ ...before, logged: before.logged + 1, remaining: before.remaining - 1 });
  });
});

it.each(["/log", "/clock", "/faults"])("lets a page on another origin read nothing at %s", async (path) => {
  await page.goto(`${evil}/`);
  expect(await fromPage(`${mock.url}${controlPath}${path}`, {})).toMatch(/^refused: /);
});

it("answers nothing to a page whose name rebinds to the sandbox (Host: evil.example)", async () => {
  // DNS rebinding: the page's own origin is now the sandbox's port, so its requests are same-origin to the browser.
  const rebound = `http://evil.example:${new URL(mock.url).port}`;
  await page.goto(`${rebound}/`);
  const before = await ownerState();
  const outcomes = await page.evaluate(async (writes) => {
    const results: Record<string, number> = {};
    for (const [name, path, body] of writes) {
      const response = await fetch(`/__sandbox${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      results[name] = response.status;
    }
    results["reads the log"] = (await fetch("/__sandbox/log")).status;
    return results;
  }, writes);
  for (const [attack, status] of Object.entries(outcomes)) expect(status, attack).toBe(403);
  expect(await ownerState()).toEqual({ ...before, logged: before.logged + 1, remaining: before.remaining - 1 });
});
