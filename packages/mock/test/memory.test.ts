// The sandbox's memory is bounded in bytes (README: "Memory"): what callers who need no credential can make it keep,
// however large and however many, stays within the documented budgets; and what it forgets to make room changes no one's
// money or rights.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { SandboxClock } from "../src/control/clock.js";
import { Faults } from "../src/control/faults.js";
import type { SurfaceRequest } from "../src/http.js";
import { stateLimits } from "../src/limits.js";
import { createPlatformSurface } from "../src/platform/surface.js";
import { start } from "./support.js";

it("keeps registrations of 0.9 MB each within the clients' budget", { timeout: 120_000 }, async () => {
  // 60 registrations, 54 MB as sent: the store keeps what fits in its budget, forgetting the least recently used.
  const fixture = fileURLToPath(new URL("./fixtures/register-flood.mjs", import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", fixture, "60"], { maxBuffer: 1024 * 1024 });
  const { statuses, grownBytes } = JSON.parse(stdout) as { statuses: number[]; grownBytes: number };
  expect(statuses.every((status) => status === 201)).toBe(true);
  expect(grownBytes).toBeLessThan(stateLimits.clients);
});

const platform = async () => {
  const clock = new SandboxClock();
  const description = createRequire(import.meta.url).resolve("@content-scraper/spec/platform.json");
  return createPlatformSurface({ description, seed: "memory", dynamic: false, requestsPerMinute: undefined, sandbox: { clock, faults: new Faults() } });
};
const post = (path: string, contentType: string, body: string, headers: SurfaceRequest["headers"] = {}): SurfaceRequest => ({
  method: "POST",
  basePath: "/api/oauth/v1",
  path,
  headers: { "content-type": contentType, host: "127.0.0.1:4010", ...headers },
  body: Buffer.from(body),
});

it("answers a token it issued and forgot to make room as expired, not as a grant of every scope", { timeout: 60_000 }, async () => {
  const surface = await platform();
  const registered = await surface.handle(post("/register", "application/json", JSON.stringify({ grant_types: ["client_credentials"] })));
  const clientId = JSON.parse(registered.body).client_id as string;
  const token = async () => JSON.parse((await surface.handle(post("/token", "application/x-www-form-urlencoded", `grant_type=client_credentials&client_id=${clientId}`))).body).access_token as string;
  const webhooks = (bearer: string) => surface.handle({ method: "GET", basePath: "/api/oauth/v1", path: "/webhooks/w1/deliveries", headers: { authorization: `Bearer ${bearer}`, host: "127.0.0.1:4010" }, body: undefined });
  const first = await token();
  expect((await webhooks(first)).status).toBe(200);
  // Each token counts well under 2 KB: this many pass the tokens' budget, and the first is forgotten.
  for (let index = 0; index < Math.ceil(stateLimits.tokens / 1500); index++) await token();
  const answer = await webhooks(first);
  expect([answer.status, JSON.parse(answer.body).error.code]).toEqual([401, "unauthorized"]);
  // A token the sandbox did not issue is still a grant of every scope.
  expect((await webhooks(`${first.slice(0, -4)}AAAA`)).status).toBe(200);
});

it("keeps the request log within its budget, however long the paths it logs", async () => {
  const mock = await start();
  try {
    const path = `/nowhere/${"p".repeat(15_000)}`;
    for (let sent = 0; sent < 700; sent += 50) await Promise.all(Array.from({ length: 50 }, () => fetch(mock.url + path).then((response) => response.arrayBuffer())));
    const entries = await mock.log();
    // Each entry counts its path twice over (two bytes a character): fewer entries than were sent fit.
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.length).toBeLessThanOrEqual(Math.floor(stateLimits.log / (2 * path.length)));
    expect(entries.length).toBeLessThan(700);
  } finally {
    await mock.close();
  }
});
