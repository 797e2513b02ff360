import { argumentsObject, choiceArgument, integerArgument, isObject } from "./arguments.js";
import type { Operation } from "./catalog.js";
import type { McpToolDefinition } from "./server.js";
import { McpInputError } from "./errors.js";
import type { Allowance } from "./allowance.js";

export const quoteToolName = "quote";
const maxCalls = 100;
const maxTimes = 1_000_000;

/** The quote tool, over the operations `--allow` lets through. */
export function quoteToolDefinition(operations: readonly Operation[]): McpToolDefinition {
  return {
    name: quoteToolName,
    title: "Price a plan of calls",
    description:
      "Prices a plan of calls at each tool's price from the API description, without sending anything, and says whether it fits what is left of the allowance. " +
      "A page of a walk is one call of its operation. An account whose own rate is above the standard price pays more than quoted (meta.creditsCharged says what each call cost).",
    inputSchema: {
      type: "object",
      required: ["calls"],
      properties: {
        calls: {
          type: "array",
          minItems: 1,
          maxItems: maxCalls,
          items: {
            type: "object",
            required: ["tool"],
            properties: {
              tool: { type: "string", enum: operations.map(({ tool }) => tool.name) },
              times: { type: "integer", minimum: 1, maximum: maxTimes, default: 1, description: "How many calls (or pages)." },
            },
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  };
}

/** The plan priced: each line, the total, whether it fits what is left, and whether any price is an account's standard rate. */
export function quote(operations: ReadonlyMap<string, Operation>, args: unknown, allowance: Allowance): Record<string, unknown> {
  const { calls } = argumentsObject(args);
  if (!Array.isArray(calls) || calls.length === 0 || calls.length > maxCalls) throw new McpInputError("calls", `calls must be an array of 1 to ${maxCalls} { tool, times }.`);
  const lines = calls.map((call: unknown, index) => {
    if (!isObject(call)) throw new McpInputError(`calls[${index}]`, `calls[${index}] must be an object: { tool, times }.`);
    const tool = choiceArgument(`calls[${index}].tool`, call.tool, [...operations.keys()]);
    const times = integerArgument(`calls[${index}].times`, call.times, 1, 1, maxTimes) as number;
    const { credits } = (operations.get(tool) as Operation).rules;
    return { tool, times, price: credits.standard, credits: credits.standard * times, accountRate: credits.accountRate };
  });
  const total = lines.reduce((sum, line) => sum + line.credits, 0);
  return { total, fits: total <= allowance.left, calls: lines, atStandardRate: lines.some((line) => line.accountRate) };
}
