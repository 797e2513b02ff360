import type { Platform } from "@content-scraper/client";
import { type ConnectionOptions, scraperClient } from "./client.js";
import type { Io } from "./io.js";

export type OneOff =
  | { command: "profile"; platform: Platform; id: string }
  | { command: "posts"; platform: Platform; id: string; cursor?: string | undefined }
  | { command: "post"; platform: Platform; id: string; includeTranscript?: boolean | undefined; includeComments?: boolean | undefined };

/** `content-scraper profile|posts|post`: one call, its `{ data, meta }` printed as JSON on stdout. */
export async function oneOff(call: OneOff, connection: ConnectionOptions, io: Io): Promise<number> {
  const client = scraperClient(connection);
  const result =
    call.command === "profile"
      ? await client.profile(call.platform, call.id)
      : call.command === "posts"
        ? await client.posts(call.platform, call.id, { cursor: call.cursor })
        : await client.post(call.platform, call.id, { includeTranscript: call.includeTranscript, includeComments: call.includeComments });
  io.stdout(`${JSON.stringify({ data: result.data, meta: result.meta }, null, 2)}\n`);
  return 0;
}
