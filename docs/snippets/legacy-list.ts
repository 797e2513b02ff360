import { createLegacyClient } from "@content-scraper/platform";

/**
 * Before: a list of the deprecated key-based API (`https://<host>/api/v1`), with the company API
 * key, paged with `page` and `limit`: the walk stops after an empty page, or once
 * page × limit ≥ `total`. Errors are `LegacyApiError`; a 402 means no active subscription.
 */
export function listAllLegacy<T>(apiKey: string, baseUrl: string, path: string) {
  const legacy = createLegacyClient({ apiKey, baseUrl });
  return legacy.pages<T>(path, { limit: 100 });
}
