import { createScraperClient } from "@content-scraper/client";

const scraper = createScraperClient({
  // Refunded errors wait 30 s, 60 s, 2 min, 4 min (with jitter); 429s wait exactly Retry-After, up to maxRetryWaitMs.
  retry: { maxRetries: 2, maxDelayMs: 120_000 },
  // Per-call timeouts default to the description's: 60 s, or 90 s on videosite and socialnet.
  timeoutMs: 45_000,
  // Every retry is logged with its status, code, request id and delay; the key never is.
  logger: console,
});

const { meta } = await scraper.profile("videosite", "creator", { timeoutMs: 90_000 });
console.log(meta.requestId, meta.upstreamCalls);
