import type { InputErrorFactory } from "./environment.js";

/** What `checkApiKey` checks a key against: the surface it is for, its valid prefixes and the other surfaces' prefixes. */
export interface KeyRules {
  /** What the surface is called in messages (`scraper`, `connect`, `key-based platform API`). */
  surface: string;
  /** The valid prefixes; empty when none is documented (any other non-empty key is accepted). */
  prefixes: readonly string[];
  /** Documented prefixes of other surfaces' keys, mapped to the surface they belong to. */
  rejectedKeyPrefixes: Readonly<Record<string, string>>;
  /** The environment variable the key may come from, named in the "missing" message. */
  envVar?: string | undefined;
  /** The option's name in messages; `apiKey` by default. */
  option?: string | undefined;
}

/**
 * Checks a key's shape against the description's prefixes and returns the valid prefix it starts with. Messages say
 * which key is expected and, for another surface's key, whose key it is; they never contain the key.
 */
export function checkApiKey(key: string | undefined, rules: KeyRules, fail: InputErrorFactory): { key: string; prefix: string | undefined } {
  const option = rules.option ?? "apiKey";
  const expected = rules.prefixes.length
    ? `a ${rules.surface} key, which starts with ${rules.prefixes.join(" or ")}`
    : `a ${rules.surface} key`;
  if (typeof key !== "string" || key.trim() === "") {
    throw fail(option, `${option} is missing: pass ${expected}${rules.envVar ? `, or set ${rules.envVar}` : ""}.`);
  }
  checkCredential(option, key, fail);
  for (const [prefix, surface] of Object.entries(rules.rejectedKeyPrefixes)) {
    if (key.startsWith(prefix)) {
      throw fail(option, `${option} starts with ${prefix}: that is a ${surface} key. The ${rules.surface} takes ${expected}.`);
    }
  }
  if (rules.prefixes.length === 0) return { key, prefix: undefined };
  const prefix = rules.prefixes.find((candidate) => key.startsWith(candidate) && key.length > candidate.length);
  if (prefix === undefined) throw fail(option, `${option} is not a ${rules.surface} key: the ${rules.surface} takes ${expected}.`);
  return { key, prefix };
}

/**
 * A credential is visible ASCII only (keys, tokens and secrets are): one holding whitespace, a control character (two
 * keys read from one file, a trailing newline) or anything else is refused here, naming the option and never showing
 * the value, before fetch would refuse it with the whole value in its message.
 */
export function checkCredential(option: string, value: string, fail: InputErrorFactory): string {
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw fail(option, `${option} holds a character no credential has (whitespace, a control character or non-ASCII): check that it was read whole and alone.`);
  }
  return value;
}

/**
 * The key prefixes the API's descriptions document (`x-key-prefix`, `x-key-environments`, `x-rejected-key-prefixes`).
 * They are public, the same for every key of a surface, so the redactor never counts them as part of a secret.
 */
export const publicKeyPrefixes: readonly string[] = ["scrape_live_", "sk_live_", "sk_test_"];
