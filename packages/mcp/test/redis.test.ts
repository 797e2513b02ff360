import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createScraperClient } from "@content-scraper/client";
import { type RunningMock, startMock } from "@content-scraper/mock";
import { createRedisStores } from "@content-scraper/redis-store";
import { startRedis } from "@content-scraper/test-server/redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, charged, secretKey, stdioClient, structured } from "./helpers.js";

let mock: RunningMock;
let redis: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  [mock, redis] = await Promise.all([startMock({ port: 0, timeScale: 0 }), startRedis()]);
});
afterAll(() => Promise.all([mock?.close(), redis?.stop()]));

describe("with --redis", () => {
  it("paces on the one bucket of the key that the CLI and its fleet use, and keeps its allowance apart from their budget", async () => {
    const server = await stdioClient(["--base-url", mock.baseUrls.scraper as string, "--max-credits", "5", "--redis", redis.url]);
    try {
      expect(structured(await server.client.callTool({ name: "shortvideoProfile", arguments: { username: "creator" } })).meta.creditsCharged).toBe(1);
    } finally {
      await server.close();
    }
    // A client configured as the CLI configures its own (scraperClient in @content-scraper/cli): the default keys.
    const stores = createRedisStores({ redis: redis.url });
    const cli = createScraperClient({ apiKey: secretKey, baseUrl: mock.baseUrls.scraper, rateLimit: { store: stores.rateLimit }, budget: { maxCredits: 100, store: stores.budget } });
    await cli.profile("shortvideo", "creator");
    await stores.close();
    const connection = new Redis(redis.url);
    try {
      expect((await connection.keys("content-scraper:bucket:*")).filter((key) => !key.endsWith(":takes"))).toHaveLength(1);
      expect((await connection.keys("content-scraper:budget:*")).filter((key) => !key.endsWith(":reservations"))).toHaveLength(2);
      expect(JSON.stringify(await connection.keys("*"))).not.toContain(secretKey);
    } finally {
      connection.disconnect();
    }
  });

  it("the allowance outlasts a server: the next one with the same --allowance-key draws on what is left", async () => {
    await mock.reset();
    const args = ["--base-url", mock.baseUrls.scraper as string, "--max-credits", "3", "--redis", redis.url, "--allowance-key", "outlasting"];
    for (const expected of [[false, false], [false, true]]) {
      const server = await stdioClient(args);
      try {
        const answers = [];
        for (let i = 0; i < 2; i++) answers.push(await server.client.callTool({ name: "socialnetProfile", arguments: { username: "creator" } }));
        expect(answers.map((answer) => answer.isError === true)).toEqual(expected);
      } finally {
        await server.close();
      }
    }
    expect(await charged(mock)).toBe(3);
  });
});

describe("with --redis on a Redis that wants a password", () => {
  // Whoever has it can delete the shared allowance's keys, and so lift --max-credits for every server on that Redis.
  const password = "mcp-redis-SECRET-p4ssw0rd";
  let guarded: Awaited<ReturnType<typeof startRedis>>;
  beforeAll(async () => {
    guarded = await startRedis(["--requirepass", password]);
  });
  afterAll(() => guarded?.stop());

  it("takes the password from CONTENT_SCRAPER_REDIS_PASSWORD, and none is on its command line", async () => {
    const server = await stdioClient(["--base-url", mock.baseUrls.scraper as string, "--max-credits", "5", "--redis", guarded.url, "--allowance-key", "guarded"], {
      CONTENT_SCRAPER_REDIS_PASSWORD: password,
    });
    try {
      // What every user of the machine reads while the server runs.
      const commandLine = readFileSync(`/proc/${server.pid()}/cmdline`, "utf8").replaceAll("\0", " ");
      expect(commandLine).toContain(`--redis ${guarded.url}`);
      expect(commandLine).not.toContain(password);
      expect(structured(await server.client.callTool({ name: "shortvideoProfile", arguments: { username: "creator" } })).meta.creditsCharged).toBe(1);
    } finally {
      await server.close();
    }
    expect(server.stderr()).not.toContain(password);
    // The allowance is in that Redis: the server did authenticate with the password from its environment.
    const connection = new Redis(guarded.url, { password });
    try {
      expect(await connection.keys("content-scraper:budget:*")).not.toEqual([]);
    } finally {
      connection.disconnect();
    }
  });

  it("refuses a URL that holds the password, exit status 2, saying where it goes, without repeating it", async () => {
    const url = `redis://:${password}@127.0.0.1:${guarded.port}`;
    const refused = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const argv = [bin, "--base-url", mock.baseUrls.scraper as string, "--max-credits", "5", "--redis", url];
      execFile(process.execPath, argv, { env: { PATH: process.env.PATH ?? "", SCRAPER_API_KEY: secretKey } }, (error, stdout, stderr) => {
        resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
      });
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("--redis holds a password, which every user of this machine can read on the command line: set CONTENT_SCRAPER_REDIS_PASSWORD instead.");
    expect(refused.stdout + refused.stderr).not.toContain(password);
  });
});
