import { callOperation, type OperationId } from "@content-scraper/client/operations";
import { validateRequest } from "@content-scraper/validators/scraper";
import type { Operation } from "./catalog.js";
import { McpInputError } from "./errors.js";

/**
 * An operation's arguments, checked against its request schema (the precompiled validators): what is wrong is an
 * McpInputError naming the field, and nothing is sent or reserved. Absent arguments are an empty body.
 */
export function checkedBody(operationId: string, args: unknown): unknown {
  const body = args ?? {};
  const result = validateRequest(operationId as OperationId, body);
  if (result.valid) return body;
  const [first] = result.errors;
  const field = first?.path ? first.path.slice(1).replaceAll("/", ".") : "arguments";
  throw new McpInputError(field, result.errors.map((error) => error.message).join("; "));
}

/** One call of the operation through the session's client (its allowance, pacing, retries): `{ data, meta }`. */
export async function callOperationTool(client: Parameters<typeof callOperation>[0], operation: Operation, args: unknown, signal: AbortSignal) {
  const operationId = operation.rules.operationId as OperationId;
  const { data, meta } = await callOperation(client, operationId, checkedBody(operationId, args) as never, { signal });
  return { data, meta };
}
