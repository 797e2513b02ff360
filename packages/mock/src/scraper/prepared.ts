import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { answerKey, ask, type EngineAnswer, jsonHeaders, loadPrism, mockingInstance, type PrismOperation } from "./prism-calls.js";

// A description as Prism needs it, prepared by the build (`scripts/prepare-descriptions.mjs`) rather than at every
// start: Prism's own reading of it (dereferenced, and turned into its operations), and Prism's answer to the usual
// request of each operation (its documented success). A start then reads one JSON file per surface, and serves its
// first answers without loading Prism.

export interface Prepared {
  /** SHA-256 of the description it was prepared from. */
  digest: string;
  operations: PrismOperation[];
  /** Prism's static answers, by `answerKey`: the documented success of every operation. */
  answers: Array<[string, EngineAnswer]>;
}

/** Where the build puts a description's preparation: beside the generated code (`src/generated`, `dist/generated`). */
export const preparedUrl = (description: string) => new URL(`../generated/prism/${basename(description)}`, import.meta.url);

const digestOf = (source: Buffer) => createHash("sha256").update(source).digest("hex");

/** Prepares a description with Prism: what the build stores, and what a start does itself when there is none to read. */
export async function prepare(description: string): Promise<Prepared> {
  const prism = await loadPrism();
  const instance = mockingInstance(prism);
  const operations = await prism.getHttpOperationsFromSpec(description);
  const answers: Prepared["answers"] = [];
  for (const operation of operations) {
    const request = { headers: jsonHeaders, body: undefined };
    const choice = { dynamic: false };
    const answer = await ask(instance, operation, request, choice);
    const key = answerKey(operation, request, choice);
    if (answer.ok && key !== undefined) answers.push([key, answer]);
  }
  return { digest: digestOf(await readFile(description)), operations, answers };
}

/**
 * The build's preparation of a description, or a fresh one where the build left none or prepared another text (a
 * description installed apart from the sandbox that was built with it).
 */
export async function preparedDescription(description: string): Promise<Prepared> {
  const [source, stored] = await Promise.all([readFile(description), readFile(preparedUrl(description), "utf8").catch(() => undefined)]);
  const prepared = stored === undefined ? undefined : (JSON.parse(stored) as Prepared);
  return prepared?.digest === digestOf(source) ? prepared : prepare(description);
}
