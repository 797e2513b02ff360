// The connect description's one convention: a rate-limit rejection is a 429 with `Retry-After` (reference 7.5).
import type { components } from "../../generated/openapi-typescript/connect/index.ts";

type RateLimited = components["responses"]["RateLimited"];

export function retryAfter(headers: RateLimited["headers"]): string {
  const wait: string = headers["Retry-After"];
  return wait;
}
