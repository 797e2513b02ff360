import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScraperClient } from "../src/index.js";
import { openTelemetryHooks } from "../src/otel.js";
import { type FaultServer, fail, ok, startFaultServer } from "./fault-server.js";

let server: FaultServer;
beforeAll(async () => {
  server = await startFaultServer();
});
afterAll(() => server.close());

function traced() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const client = createScraperClient({
    apiKey: "scrape_live_otel",
    baseUrl: server.baseUrl,
    rateLimit: false,
    retry: { baseDelayMs: 5, maxDelayMs: 10 },
    hooks: openTelemetryHooks({ tracer: provider.getTracer("test") }),
  });
  return { client, spans: () => exporter.getFinishedSpans() };
}

describe("OpenTelemetry hooks", () => {
  it("one client span per call, an event per attempt, the retries and the credits charged", async () => {
    server.script(fail(502, "UPSTREAM_ERROR"), ok({ username: "c", display_name: "c", follower_count: 1 }, { charged: 1 }));
    const { client, spans } = traced();
    await client.profile("microblog", "c");
    const [span] = spans();
    expect(spans()).toHaveLength(1);
    expect(span?.name).toBe("scraper microblogProfile");
    expect(span?.kind).toBe(SpanKind.CLIENT);
    expect(span?.attributes).toMatchObject({
      "scraper.operation": "microblogProfile",
      "scraper.platform": "microblog",
      "scraper.credits_charged": 1,
      "scraper.retries": 1,
      "scraper.rate_limit_wait_ms": 0,
      "http.response.status_code": 200,
    });
    expect(span?.events.map((event) => event.name)).toEqual(["attempt", "response", "retry", "attempt", "response"]);
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("a failed call's span records the error, and concurrent calls get their own spans", async () => {
    server.script(fail(404, "PROFILE_NOT_FOUND", {}, { "x-scraper-credits-charged": "1" }));
    const { client, spans } = traced();
    await Promise.allSettled([client.profile("shortvideo", "a"), client.profile("photoshare", "b")]);
    expect(spans().map((span) => span.name).sort()).toEqual(["scraper photoshareProfile", "scraper shortvideoProfile"]);
    for (const span of spans()) {
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.attributes["scraper.credits_charged"]).toBe(1);
    }
  });

  it("a call that never got an answer (a timeout) ends its span with the exception", async () => {
    server.script(async (_request, response) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      response.destroy();
    });
    const { client, spans } = traced();
    await expect(client.profile("shortvideo", "c", { timeoutMs: 30 })).rejects.toThrow("timed out");
    const [span] = spans();
    expect(span?.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(span?.events.map((event) => event.name)).toEqual(["attempt", "exception"]);
  });
});
