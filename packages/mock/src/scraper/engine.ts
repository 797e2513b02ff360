import { BoundedMap } from "../bounded.js";
import { stateLimits } from "../limits.js";
import { preparedDescription } from "./prepared.js";
import { answerKey, ask, type Choice, type EngineAnswer, type EngineRequest, loadPrism, mockingInstance, type PrismOperation } from "./prism-calls.js";

// Prism, in process: it routes nothing here (the surface has already found the operation) but negotiates the documented
// response, serves its example (static mode) or generates one from the schema (dynamic mode), and honours what the
// caller asked for with `Prefer` (code, example, dynamic). A static answer is asked of Prism once and remembered, from
// the build's preparation on: a sandbox that serves only those never loads Prism.

export type { Choice, EngineAnswer, PrismOperation };

export interface Engine {
  readonly operations: ReadonlyMap<string, PrismOperation>;
  answer(operation: PrismOperation, request: EngineRequest, choice: Choice): Promise<EngineAnswer>;
}

/** Loads a bundled description (its path) into Prism. */
export async function createEngine(description: string): Promise<Engine> {
  const prepared = await preparedDescription(description);
  // Shared between requests, as Prism shares its examples: no surface changes an answer in place. The build's answers
  // are as many as the description's operations; those asked since (a `Prefer`, a fault) are kept within a budget.
  const documented = new Map(prepared.answers);
  const remembered = new BoundedMap<EngineAnswer>(stateLimits.answers);
  let instance: Promise<ReturnType<typeof mockingInstance>> | undefined;
  return {
    operations: new Map(prepared.operations.map((operation) => [operation.iid ?? operation.id, operation])),
    async answer(operation, request, choice) {
      const key = answerKey(operation, request, choice);
      const known = key === undefined ? undefined : (documented.get(key) ?? remembered.use(key));
      if (known) return known;
      instance ??= loadPrism().then(mockingInstance);
      const answer = await ask(await instance, operation, request, choice);
      if (key !== undefined && answer.ok) remembered.set(key, answer);
      return answer;
    },
  };
}
