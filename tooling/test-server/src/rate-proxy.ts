import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A proxy on loopback in front of a scraper base URL (the sandbox) that charges an account's own rate: every answer the
 * sandbox billed is rewritten to cost `rate` credits a call (`meta.credits_charged` and `X-Scraper-Credits-Charged`),
 * as the reference allows ("Rates … may differ per account"). `charged` is its ledger: what the account paid.
 */
export async function startRateProxy(target: string, rate: number) {
  let charged = 0;
  let requests = 0;
  const server = createServer(async (incoming, outgoing) => {
    requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) {
      if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers.set(name, value);
    }
    headers.set("accept-encoding", "identity");
    let answer: Response;
    try {
      answer = await fetch(`${target}${incoming.url?.replace(/^\/api\/v1/, "") ?? ""}`, { method: incoming.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
    } catch {
      outgoing.writeHead(502, { "content-type": "text/plain" }).end("the proxy's upstream is down");
      return;
    }
    let text = await answer.text();
    const billed = Number(answer.headers.get("x-scraper-credits-charged") ?? 0) > 0;
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!["content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive"].includes(name)) out[name] = value;
    });
    if (billed) {
      charged += rate;
      out["x-scraper-credits-charged"] = String(rate);
      const body = JSON.parse(text) as { meta?: { credits_charged?: number } };
      if (body.meta) {
        body.meta.credits_charged = rate;
        text = JSON.stringify(body);
      }
    }
    outgoing.writeHead(answer.status, out).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    /** The scraper base URL through the proxy. */
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`,
    /** Credits the account was charged through the proxy. */
    get charged() {
      return charged;
    },
    /** Requests that reached the proxy. */
    get requests() {
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
