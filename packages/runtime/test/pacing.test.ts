import { describe, expect, it } from "vitest";
import { type CreditReservation, memoryBudgetStore, memoryRateLimitStore, Pacer } from "../src/index.js";

const limit = { requestsPerMinute: 60, burstSeconds: 60 };

describe("the in-memory token bucket", () => {
  it("lets a minute's allowance through as a burst, then refills continuously", () => {
    let now = 0;
    const store = memoryRateLimitStore(() => now);
    for (let i = 0; i < 60; i++) expect(store.take("k", limit)).toBe(0);
    expect(store.take("k", limit)).toBe(1000); // one token a second at 60 a minute; nothing taken
    now += 500;
    expect(store.take("k", limit)).toBe(500);
    now += 500;
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
