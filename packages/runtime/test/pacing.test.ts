import { describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { type CreditReservation, memoryBudgetStore, memoryRateLimitStore, Pacer, PacingTimeout, type RateLimitStore, StoreReplyError } from "../src/index.js";

const limit = { requestsPerMinute: 60, burstSeconds: 60 };

describe("the in-memory token bucket", () => {
  it("lets a minute's allowance through as a burst, then refills continuously from the service's first count", () => {
    let now = 0;
    const store = memoryRateLimitStore(() => now);
    for (let i = 0; i < 60; i++) expect(store.take("k", limit)).toBe(0);
    now += 200;
    store.correct("k", limit, 59); // the first answer's count: the service's bucket refills from now on
    expect(store.take("k", limit)).toBe(1000); // one token a second at 60 a minute; nothing taken
    now += 500;
    expect(store.take("k", limit)).toBe(500);
    now += 500;
    expect(store.take("k", limit)).toBe(0);
  });

  it("reads the service's count as of when it counted: the answer's age ago, less the request's way there", () => {
    let now = 0;
    const store = memoryRateLimitStore(() => now);
    for (let i = 0; i < 60; i++) store.take("k", limit);
    now += 900;
    // The first answer's request left 0.9 s ago and reached the service its way there later (wayThereMs, 100 ms): the
    // service has refilled 0.8 of a token since it counted, and this bucket, which held its refill, resumes from then.
    store.correct("k", limit, 59, 900);
    expect(store.take("k", limit)).toBe(200);
  });

  it("leaves out of the service's count the tokens taken after it counted, not those taken on the way there", () => {
    let now = 0;
    const store = memoryRateLimitStore(() => now);
    const tight = { requestsPerMinute: 60, burstSeconds: 600 }; // 600 tokens, one a second
    for (let i = 0; i < 10; i++) store.take("k", tight); // at 0: the counted request among them
    now = 50;
    for (let i = 0; i < 2; i++) store.take("k", tight); // on its way there: they may reach the service before it
    now = 500;
    for (let i = 0; i < 5; i++) store.take("k", tight); // in flight when the count comes
    now = 1000;
    // The service had 20 left when it counted the request sent at 0 (other traffic on the account), 100 ms later: with
    // 0.9 s of refill since, less the 5 sent after that, 15.9 are left for this bucket, not 20.9 (nor 13.9).
    store.correct("k", tight, 20, 1000);
    for (let i = 0; i < 15; i++) expect(store.take("k", tight)).toBe(0);
    expect(store.take("k", tight)).toBeCloseTo(100, -1); // 0.1 of a token to go, give or take a float's last digit
  });

  it("holds the refill after a take from a full bucket until the service's first count, or holdMs without one", () => {
    let now = 0;
    const store = memoryRateLimitStore(() => now);
    for (let i = 0; i < 60; i++) store.take("k", limit);
    // The service's bucket stays full until the first request reaches it: this one does not refill before then.
    expect(store.take("k", limit)).toBe(2000);
    now += 1000;
    expect(store.take("k", limit)).toBe(1000);
    now += 1000;
    expect(store.take("k", limit)).toBe(0);
  });

  it("keeps one bucket per key", () => {
    const store = memoryRateLimitStore(() => 0);
    const one = { requestsPerMinute: 60, burstSeconds: 1 };
    expect(store.take("a", one)).toBe(0);
    expect(store.take("a", one)).toBeGreaterThan(0);
    expect(store.take("b", one)).toBe(0);
  });

  it("never holds more tokens than the service says remain, clamped to what the bucket holds", () => {
    let now = 0;
    const store = memoryRateLimitStore(() => now);
    store.correct("k", limit, 1);
    expect(store.take("k", limit)).toBe(0);
    expect(store.take("k", limit)).toBe(1000);
    store.correct("k", limit, -5);
    store.correct("k", limit, 1e12);
    now += 1000;
    expect(store.take("k", limit)).toBe(0);
  });

  it("pauses for a Retry-After, then refills from empty", () => {
    let now = 0;
    const store = memoryRateLimitStore(() => now);
    store.pause("k", limit, 5000);
    expect(store.take("k", limit)).toBe(5000);
    now += 5000;
    expect(store.take("k", limit)).toBe(1000);
    now += 1000;
    expect(store.take("k", limit)).toBe(0);
  });
});

describe("the pacer", () => {
  it("serves waiting calls first come, first served, drops aborted ones, and reports each wait", async () => {
    const store = memoryRateLimitStore();
    const pacer = new Pacer(store, "k", { requestsPerMinute: 600, burstSeconds: 0.1 }); // one token, then one every 100 ms
    expect(await pacer.wait()).toBe(0);
    const order: string[] = [];
    const controller = new AbortController();
    const a = pacer.wait().then((ms) => order.push(`a ${ms > 50}`));
    const b = pacer.wait(controller.signal).then(
      () => order.push("b"),
      (reason: unknown) => order.push(`b ${String(reason)}`),
    );
    const c = pacer.wait().then((ms) => order.push(`c ${ms > 150}`));
    controller.abort("stopped");
    await Promise.all([a, b, c]);
    expect(order).toEqual(["b stopped", "a true", "c true"]);
  });

  it("fails every waiting call with the store's error when the store fails", async () => {
    let failing = false;
    const memory = memoryRateLimitStore();
    const store = { ...memory, take: (key: string, bucket: typeof limit) => (failing ? Promise.reject(new Error("store down")) : memory.take(key, bucket)) };
    const pacer = new Pacer(store, Promise.resolve("k"), { requestsPerMinute: 600, burstSeconds: 0.1 });
    await pacer.wait();
    const waiting = [pacer.wait(), pacer.wait()];
    failing = true;
    for (const call of waiting) await expect(call).rejects.toThrow("store down");
  });
});

describe("the pacer against a store that answers garbage", () => {
  const bucket = { requestsPerMinute: 2, burstSeconds: 60 };
  const answering = (reply: unknown): RateLimitStore => ({ take: () => reply as number, correct() {}, pause() {} });

  it.each([
    ["nil", null],
    ["undefined", undefined],
    ["NaN", Number.NaN],
    ["a negative wait", -5],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["the string OK", "OK"],
    ["an array", [0]],
    ["a numeric string", "0"],
  ])("refuses %s with a StoreReplyError: no token, no spin", async (_name, reply) => {
    let takes = 0;
    const store = answering(reply);
    const counting = {
      ...store,
      take: (...args: Parameters<RateLimitStore["take"]>) => {
        takes++;
        return store.take(...args);
      },
    };
    await expect(new Pacer(counting, "k", bucket).wait()).rejects.toBeInstanceOf(StoreReplyError);
    expect(takes).toBe(1);
  });

  it("fails the calls in line when the store turns to garbage while they wait", async () => {
    let reply: unknown = 50;
    const pacer = new Pacer({ take: () => reply as number, correct() {}, pause() {} }, "k", bucket);
    const waiting = pacer.wait();
    reply = null;
    await expect(waiting).rejects.toBeInstanceOf(StoreReplyError);
  });
});

describe("the pacer's deadline and timers", () => {
  const slow = { requestsPerMinute: 1, burstSeconds: 60 }; // one token, then one a minute

  it("rejects a wait that passes its deadline with PacingTimeout, and serves the next call", async () => {
    const pacer = new Pacer(memoryRateLimitStore(), "k", slow);
    await pacer.wait();
    const started = performance.now();
    await expect(pacer.wait(undefined, performance.now() + 100)).rejects.toBeInstanceOf(PacingTimeout);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("leaves no timer behind once every waiting call aborted or timed out: the process exits at once", () => {
    const script = fileURLToPath(new URL("./pacer-exit.fixture.mjs", import.meta.url));
    const started = performance.now();
    const child = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 20_000 });
    expect(child.stdout.trim()).toBe("settled: aborted, timed out");
    // The bucket's next token is a minute away: a timer left behind would hold the process that long.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it("shares one listener per signal: a signal shared by 50 waiting calls draws no MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on("warning", onWarning);
    try {
      const pacer = new Pacer(memoryRateLimitStore(), "k", slow);
      await pacer.wait();
      const controller = new AbortController();
      const waiting = Array.from({ length: 50 }, () => pacer.wait(controller.signal).catch(() => "aborted"));
      controller.abort();
      expect(await Promise.all(waiting)).toEqual(Array(50).fill("aborted"));
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain("MaxListenersExceededWarning");
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe("the in-memory credit budget", () => {
  it("reserves while spent plus reserved stays within the limit, and settles what was charged", () => {
    const store = memoryBudgetStore();
    // The in-memory store answers synchronously.
    const reserve = (credits: number) => store.reserve("k", credits, 30) as CreditReservation | undefined;
    const first = reserve(25);
    expect(first).toBeDefined();
    expect(reserve(6)).toBeUndefined();
    expect(store.state("k")).toEqual({ spent: 0, reserved: 25 });
    store.settle("k", first as CreditReservation, 0); // refunded
    store.settle("k", first as CreditReservation, 25); // a second settle of the same reservation counts nothing
    expect(store.state("k")).toEqual({ spent: 0, reserved: 0 });
    store.settle("k", reserve(1) as CreditReservation, 1);
    expect(store.state("k")).toEqual({ spent: 1, reserved: 0 });
    expect(store.state("other")).toEqual({ spent: 0, reserved: 0 });
  });
});
