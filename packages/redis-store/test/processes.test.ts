import { spawn } from "node:child_process";
import { once } from "node:events";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startRedis } from "@content-scraper/test-server/redis";

let server: Awaited<ReturnType<typeof startRedis>>;
beforeAll(async () => {
  server = await startRedis();
});
afterAll(async () => {
  await server?.stop();
});

/** Starts `count` Node processes running the contender, lets them go at once, and answers what each got. */
async function contend(processes: number, args: string[]): Promise<number[]> {
  const children = Array.from({ length: processes }, () =>
    spawn(process.execPath, [new URL("./fixtures/contender.mjs", import.meta.url).pathname, server.url, ...args], { stdio: ["pipe", "pipe", "inherit"] }),
  );
  const outputs = children.map((child) => {
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += String(chunk);
    });
    return () => output;
  });
  await Promise.all(children.map(async (child, i) => {
    while (!outputs[i]?.().includes("ready")) await once(child.stdout, "data");
  }));
  for (const child of children) child.stdin.end("go\n");
  await Promise.all(children.map((child) => once(child, "exit")));
  return outputs.map((output) => Number(output().split("\n")[1]));
}

it("two Node processes share one bucket: together they get its 30 tokens, not 30 each", async () => {
  const got = await contend(2, ["take", "shared-bucket", "40"]);
  expect(got).toHaveLength(2);
  expect(got.reduce((a, b) => a + b, 0)).toBe(30);
});

it("three Node processes share one budget: together they reserve at most maxCredits", async () => {
  const got = await contend(3, ["reserve", "shared-budget", "40", "50"]);
  expect(got).toHaveLength(3);
  expect(got.reduce((a, b) => a + b, 0)).toBe(50);
});
