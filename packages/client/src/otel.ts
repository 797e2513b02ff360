import { countHeader } from "@content-scraper/runtime";
import { type Attributes, type Span, SpanKind, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import type { ScraperHooks } from "./hooks.js";

/** The span of one call, while it is open. */
interface OpenCall {
  span: Span;
  pacingWaitMs: number;
}

// Every event of one call carries the same `details` object: it is the call's key.
const callIdOf = (details: Readonly<Record<string, unknown>> | undefined) => details;

/**
 * Hooks that trace the client with OpenTelemetry: a span per call (`scraper <operationId>`, kind client) and an event
 * per attempt, retry and answer, with the operation, platform, credits charged, retries and time spent waiting for
 * pacing. Import it from `@content-scraper/client/otel` (needs `@opentelemetry/api`, an optional peer dependency): a
 * client without it loads none of it.
 *
 * ```ts
 * createScraperClient({ hooks: openTelemetryHooks() });
 * ```
 */
export function openTelemetryHooks({ tracer = trace.getTracer("@content-scraper/client") }: { tracer?: Tracer } = {}): ScraperHooks {
  const open = new Map<unknown, OpenCall>();
  const end = (id: unknown, status: { code: SpanStatusCode; message?: string }, attributes: Attributes) => {
    const call = open.get(id);
    if (!call) return;
    open.delete(id);
    call.span.setAttributes({ ...attributes, "scraper.rate_limit_wait_ms": call.pacingWaitMs });
    call.span.setStatus(status);
    call.span.end();
  };
  return {
    onRequest(event) {
      const id = callIdOf(event.details);
      let call = open.get(id);
      if (!call) {
        const attributes: Attributes = { "scraper.operation": event.name, "http.request.method": event.method, "url.full": event.url };
        if (typeof event.details?.platform === "string") attributes["scraper.platform"] = event.details.platform;
        call = { span: tracer.startSpan(`scraper ${event.name}`, { kind: SpanKind.CLIENT, attributes }), pacingWaitMs: 0 };
        open.set(id, call);
      }
      call.pacingWaitMs += event.pacingWaitMs;
      call.span.addEvent("attempt", { "scraper.attempt": event.attempt, "scraper.pacing_wait_ms": event.pacingWaitMs });
    },
    onResponse(event) {
      const id = callIdOf(event.details);
      open.get(id)?.span.addEvent("response", { "scraper.attempt": event.attempt, "http.response.status_code": event.status, "scraper.duration_ms": event.durationMs });
      if (!event.final) return;
      const charged = countHeader(event.headers, "x-scraper-credits-charged");
      const attributes: Attributes = { "http.response.status_code": event.status, "scraper.retries": event.attempt - 1 };
      if (charged !== undefined) attributes["scraper.credits_charged"] = charged;
      end(id, event.status < 400 ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR, message: `HTTP ${event.status}` }, attributes);
    },
    onRetry(event) {
      open.get(callIdOf(event.details))?.span.addEvent("retry", { "scraper.attempt": event.attempt, "scraper.retry_delay_ms": event.delayMs, "scraper.retry_reason": event.reason ?? "" });
    },
    onError(event) {
      const call = open.get(callIdOf(event.details));
      call?.span.recordException(event.error);
      end(callIdOf(event.details), { code: SpanStatusCode.ERROR, message: event.error.message }, {});
    },
  };
}
