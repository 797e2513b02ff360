import { createScraperClient } from "@content-scraper/client";
import { type RunningMock, startMock } from "@content-scraper/mock";
import { createRedisStores } from "@content-scraper/redis-store";
import { startRedis } from "@content-scraper/test-server/redis";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { charged, secretKey, stdioClient, structured } from "./helpers.js";

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
