import type { ServerResponse } from "node:http";
import type { Received } from "@content-scraper/test-server";
import { type Dispatcher, getGlobalDispatcher, setGlobalDispatcher } from "undici";

export { hostile, startScriptedServer as startServer } from "@content-scraper/test-server";

export const answer =
  (status: number, body = "", headers: Record<string, string> = {}) =>
  (_request: Received, response: ServerResponse) => {
    response.writeHead(status, headers).end(body);
  };

/** Runs `run` with the global dispatcher (the one Node's fetch sends through) replaced by `make`'s, then puts it back. */
export async function withGlobalDispatcher(make: (own: Dispatcher) => Pick<Dispatcher, "dispatch">, run: () => Promise<void>): Promise<void> {
  const own = getGlobalDispatcher();
  setGlobalDispatcher(make(own) as Dispatcher);
  try {
    await run();
  } finally {
    setGlobalDispatcher(own);
  }
}
