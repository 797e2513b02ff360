import { scraperKey } from "./rules.js";

/** Keys with a meaning in the sandbox (README: "Keys"). Any other `scrape_live_…` key is a fresh account. */
export const sandboxKeys = {
  /** An account whose balance is empty: every charged request answers 402. */
  empty: `${scraperKey.keyPrefix}empty`,
  /** A revoked key: answers 401, like any invalid key. */
  revoked: `${scraperKey.keyPrefix}revoked`,
} as const;

export type KeyCheck = { ok: true; key: string } | { ok: false; message: string };

/** The scraper's key rules from the description (`x-key-prefix`, `x-rejected-key-prefixes`), plus the revoked sandbox key. */
const expected = `a scraper key (${scraperKey.keyPrefix}…) in the ${scraperKey.name} header`;
const rejectedPrefixes = Object.entries(scraperKey.rejectedKeyPrefixes);

export function checkKey(header: string | string[] | undefined): KeyCheck {
  const key = Array.isArray(header) ? header[0] : header;
  if (!key) return { ok: false, message: `A valid scraper API key is required: send ${expected}.` };
  for (const [prefix, surface] of rejectedPrefixes) {
    if (key.startsWith(prefix)) return { ok: false, message: `That is a ${surface} key (${prefix}…), which scraper routes do not accept: send ${expected}.` };
  }
  if (!key.startsWith(scraperKey.keyPrefix) || key.length === scraperKey.keyPrefix.length) {
    return { ok: false, message: `The key is not a valid scraper key: send ${expected}.` };
  }
  if (key === sandboxKeys.revoked) return { ok: false, message: "This scraper key has been revoked: create a new one." };
  return { ok: true, key };
}
