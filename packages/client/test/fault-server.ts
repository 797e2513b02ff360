import type { Handler } from "@content-scraper/test-server";
import { startScriptedServer } from "@content-scraper/test-server";

export type { Handler, Received as RecordedRequest } from "@content-scraper/test-server";

/** The scripted loopback server, standing for the scraper's `/api/v1`. */
export const startFaultServer = () => startScriptedServer("/api/v1");
export type FaultServer = Awaited<ReturnType<typeof startFaultServer>>;

export const rateHeaders = { "x-scraper-ratelimit-limit": "120", "x-scraper-ratelimit-remaining": "119", "x-scraper-ratelimit-reset": "1763776380" };

/** A 200 in the service's envelope, with the five X-Scraper headers. */
export function ok(data: unknown, { charged = 1, remaining = 4999, headers = {} as Record<string, string> } = {}): Handler {
  return (_request, response) => {
    response.writeHead(200, {
      "content-type": "application/json",
      "x-scraper-credits-charged": String(charged),
      "x-scraper-credits-remaining": String(remaining),
      ...rateHeaders,
      ...headers,
    });
    response.end(JSON.stringify({ data, request_id: "req_ok", upstream_calls: 1, meta: { credits_charged: charged, credits_remaining: remaining } }));
  };
}

/** An error in the service's envelope. */
export function fail(status: number, error: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", "x-scraper-credits-charged": "0", ...headers });
    response.end(JSON.stringify({ error, message: `${error} happened`, request_id: `req_${error.toLowerCase()}`, ...extra }));
  };
}

/** The gateway's bare text/plain answer. */
export function plain(status: number, text: string): Handler {
  return (_request, response) => {
    response.writeHead(status, { "content-type": "text/plain" });
    response.end(text);
  };
}
