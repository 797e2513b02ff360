import type { PrismOperation } from "./engine.js";
import type { Examples, Post } from "./posts.js";
import { type ErrorCode, statusOf } from "./rules.js";
import type { Schema } from "../body.js";

// What the description documents for an operation, read from the operation as Prism loaded it: the request schema,
// which response carries which error code, and the example listing catalogs are made from.

/** A documented response for Prism to serve: its status, the example to use, the media type to ask for. */
export interface Documented {
  code: number;
  exampleKey?: string | undefined;
  accept?: string;
}

type Example = { key: string; value?: unknown };
const examplesOf = (content: { examples?: unknown[] }) => (content.examples ?? []) as Example[];

export function requestSchema(operation: PrismOperation): Schema | undefined {
  return operation.request?.body?.contents?.find((content) => content.mediaType === "application/json")?.schema as Schema | undefined;
}

/**
 * The response whose example carries the first of `codes` the operation documents. A code documented only by the
 * `default` response gets the sandbox's status for it (the reference shows none).
 */
export function documentedError(operation: PrismOperation, codes: readonly ErrorCode[]): Documented | undefined {
  for (const code of codes) {
    for (const response of operation.responses) {
      for (const content of response.contents ?? []) {
        const example = examplesOf(content).find((candidate) => (candidate.value as { error?: unknown } | undefined)?.error === code);
        if (example) return { code: response.code === "default" ? statusOf(code) : Number(response.code), exampleKey: example.key };
      }
    }
  }
  return undefined;
}

/** The documented `text/plain` response (the gateway's bare 504). */
export function documentedPlainText(operation: PrismOperation): Documented | undefined {
  for (const response of operation.responses) {
    const content = response.contents?.find((candidate) => candidate.mediaType === "text/plain");
    const example = content && examplesOf(content)[0];
    if (example) return { code: Number(response.code), exampleKey: example.key, accept: "text/plain" };
  }
  return undefined;
}

/** The example listing of a posts operation's success response, which catalogs are made from. */
export function listingExamples(operation: PrismOperation): Examples | undefined {
  const success = operation.responses.find((response) => response.code === "200");
  const content = success?.contents?.find((candidate) => candidate.mediaType === "application/json");
  const value = content && (examplesOf(content)[0]?.value as { data?: { posts?: Post[]; profile_pictures?: Record<string, string> } } | undefined);
  const posts = value?.data?.posts;
  return posts?.length ? { posts, pictures: value?.data?.profile_pictures ?? {} } : undefined;
}
