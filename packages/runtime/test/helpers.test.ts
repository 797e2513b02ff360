import { describe, expect, it, vi } from "vitest";
import {
  abortReason,
  checkBaseUrl,
  checkNumber,
  countHeader,
  deadline,
  defaultTransportTimeoutMs,
  isBrowser,
  maxTimerMs,
  rateLimitHeaders,
  resolveTransport,
  retryAfterMs,
  setTimer,
  sleep,
} from "../src/index.js";

const fail = (field: string, message: string) => Object.assign(new Error(message), { field });

describe("retryAfterMs", () => {
  it.each([
    ["12", 12_000],
    [" 0 ", 0],
    ["", undefined],
    ["soon", undefined],
    ["-3", undefined],
    ["1.5", 1500],
    ["0.0001", 1],
    ["5, 3600", 3_600_000],
    ["soon, 7", 7000],
    ["1000000000", 1e12],
    ["9".repeat(400), Number.MAX_SAFE_INTEGER],
  ])("reads %j as %s ms", (value, expected) => {
    expect(retryAfterMs(new Headers(value === "" ? {} : { "retry-after": value }))).toBe(expected);
  });

  it("reads an HTTP-date relative to now, never negative, the longest of a repeated header", () => {
    const now = Date.parse("Sat, 22 Nov 2025 10:00:00 GMT");
    const read = (value: string) => retryAfterMs(new Headers({ "retry-after": value }), now);
    expect(read("Sat, 22 Nov 2025 10:00:30 GMT")).toBe(30_000);
    expect(read("Sat, 22 Nov 2025 09:00:00 GMT")).toBe(0);
    expect(read("Saturday, 22-Nov-25 10:00:10 GMT")).toBe(10_000);
    expect(read("Sat, 22 Nov 2025 10:00:30 GMT, Sat, 22 Nov 2025 10:01:00 GMT")).toBe(60_000);
    expect(read("Sat, 22 Nov 2025 10:00:30 GMT, 45")).toBe(45_000);
    expect(read("Sun, 99 Foo 2025")).toBeUndefined();
  });
});

describe("countHeader and rateLimitHeaders", () => {
  it.each([
    ["100", 100],
    ["", undefined],
    ["0", 0],
    ["-1000000000", undefined],
    ["1e2", undefined],
    ["ten", undefined],
    ["2.5", undefined],
    ["9".repeat(20), undefined],
    ["119, 3", 3],
    ["-5, 40", 40],
  ])("reads %j as %s", (value, expected) => {
    expect(countHeader(new Headers({ "x-n": value }), "x-n")).toBe(expected);
  });

  it("is undefined when absent, and reads a surface's three headers by prefix (reset as sent)", () => {
    expect(countHeader(new Headers(), "x-n")).toBeUndefined();
    const headers = new Headers({ "x-ratelimit-limit": "100", "x-ratelimit-remaining": "-1", "x-ratelimit-reset": "1763776380" });
    expect(rateLimitHeaders(headers, "x-ratelimit")).toEqual({ limit: 100, remaining: undefined, reset: "1763776380" });
  });
});

describe("setTimer", () => {
  it("chains timers for a delay beyond 2^31-1 ms instead of firing at once", () => {
    vi.useFakeTimers();
    try {
      let fired = 0;
      setTimer(() => fired++, maxTimerMs + 1000);
      vi.advanceTimersByTime(maxTimerMs);
      expect(fired).toBe(0);
      vi.advanceTimersByTime(1000);
      expect(fired).toBe(1);
      const cancel = setTimer(() => fired++, 3 * maxTimerMs);
      vi.advanceTimersByTime(2 * maxTimerMs);
      cancel();
      vi.advanceTimersByTime(2 * maxTimerMs);
      expect(fired).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("with real timers: a long delay neither fires early nor warns", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning.name);
    process.on("warning", onWarning);
    let fired = false;
    const cancel = setTimer(() => {
      fired = true;
    }, 2 ** 31);
    await new Promise((resolve) => setTimeout(resolve, 50));
    cancel();
    process.off("warning", onWarning);
    expect(fired).toBe(false);
    expect(warnings).not.toContain("TimeoutOverflowWarning");
  });

  it("treats a negative or NaN delay as 0", async () => {
    await new Promise<void>((resolve) => setTimer(resolve, -5));
    await new Promise<void>((resolve) => setTimer(resolve, Number.NaN));
  });
});

describe("sleep", () => {
  it("waits", async () => {
    const start = performance.now();
    await sleep(20);
    expect(performance.now() - start).toBeGreaterThanOrEqual(19);
  });

  it("rejects with the signal's reason, at once when already aborted", async () => {
    const reason = new Error("stop");
    await expect(sleep(10_000, AbortSignal.abort(reason))).rejects.toBe(reason);
    const controller = new AbortController();
    const waiting = sleep(10_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it("gives an AbortError when the signal has no reason", () => {
    expect(abortReason(undefined)).toMatchObject({ name: "AbortError" });
  });
});

describe("deadline", () => {
  it("aborts after the timeout and says so", async () => {
    const timer = deadline(10, undefined);
    await new Promise((resolve) => timer.signal?.addEventListener("abort", resolve));
    expect(timer.timedOut()).toBe(true);
    timer.clear();
  });

  it("follows the caller's signal, already aborted or later, with its reason", () => {
    const reason = new Error("caller");
    const early = deadline(10_000, AbortSignal.abort(reason));
    expect(early.signal?.aborted).toBe(true);
    expect(early.signal?.reason).toBe(reason);
    early.clear();
    const controller = new AbortController();
    const late = deadline(10_000, controller.signal);
    controller.abort(reason);
    expect(late.signal?.reason).toBe(reason);
    expect(late.timedOut()).toBe(false);
    late.clear();
  });

  it("without a timeout follows the caller's signal through a signal of its own, and without either has none", () => {
    const controller = new AbortController();
    const { signal } = deadline(undefined, controller.signal);
    expect(signal).not.toBe(controller.signal);
    controller.abort("enough");
    expect([signal?.aborted, signal?.reason]).toEqual([true, "enough"]);
    expect(deadline(undefined, undefined).signal).toBeUndefined();
  });
});

describe("option checks", () => {
  it("checkNumber: the fallback, a valid value, or the factory's error naming the option", () => {
    expect(checkNumber("n", undefined, 4, {}, fail)).toBe(4);
    expect(checkNumber("n", 0, 4, { integer: true }, fail)).toBe(0);
    expect(() => checkNumber("retry.maxRetries", 1.5, 4, { integer: true }, fail)).toThrow(/retry.maxRetries must be a non-negative integer/);
    expect(() => checkNumber("timeoutMs", 0, 1, { positive: true }, fail)).toThrow(/positive number/);
    expect(() => checkNumber("n", Number.NaN, 1, {}, fail)).toThrow();
  });

  it("checkBaseUrl: an http(s) URL without trailing slashes", () => {
    const hint = { example: "https://<host>/x" };
    expect(checkBaseUrl("baseUrl", "https://api.example.com/api/embed/", hint, fail)).toBe("https://api.example.com/api/embed");
    expect(() => checkBaseUrl("baseUrl", undefined, hint, fail)).toThrow(/baseUrl is missing.*https:\/\/<host>\/x\)\.$/);
    expect(() => checkBaseUrl("baseUrl", "", { ...hint, envVar: "X_BASE_URL" }, fail)).toThrow(/or set X_BASE_URL/);
    expect(() => checkBaseUrl("baseUrl", "nope", hint, fail)).toThrow(/not an absolute URL/);
    expect(() => checkBaseUrl("baseUrl", "ftp://h/x", hint, fail)).toThrow(/http\(s\)/);
  });

  it("isBrowser: a window with a document", () => {
    expect(isBrowser()).toBe(false);
    vi.stubGlobal("window", { document: {} });
    expect(isBrowser()).toBe(true);
    vi.unstubAllGlobals();
  });
});

describe("resolveTransport", () => {
  it("times out after the SDK's default when no timeout is given, so no call can hang forever", () => {
    expect(resolveTransport({ baseUrl: "https://api.example.invalid/api/embed" }, "https://<host>/api/embed", fail).timeoutMs).toBe(defaultTransportTimeoutMs);
    expect(defaultTransportTimeoutMs).toBe(60_000);
    expect(resolveTransport({ baseUrl: "https://api.example.invalid/api/embed", timeoutMs: 5 }, "", fail).timeoutMs).toBe(5);
    expect(() => resolveTransport({ baseUrl: "https://api.example.invalid/api/embed", timeoutMs: 0 }, "", fail)).toThrow(/timeoutMs/);
  });
});
