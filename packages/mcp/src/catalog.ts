import { focusedOperations, operations, retryBackoff } from "./generated/scraper.operations.js";
import { type GeneratedTool, tools } from "./generated/scraper.tools.js";

/** What the server reads of an operation's rules (the generated table, from the description's extensions). */
export interface OperationFacts {
  operationId: string;
  platform?: string;
  tag?: string;
  credits: { standard: number; accountRate: boolean };
  /** `x-paging`: `request` is the body field that takes the cursor. */
  paging?: { mode: "cursor" | "single-page"; items: string; request?: string };
}

/** A priced operation: its generated tool and its rules. */
export interface Operation {
  tool: GeneratedTool;
  rules: OperationFacts;
}

const table: Readonly<Record<string, OperationFacts>> = { ...operations, ...focusedOperations };

/** Every priced operation of the description, in its order, with the tool codegen made of it. */
export const catalog: readonly Operation[] = tools.map((tool) => {
  const rules = table[tool.name];
  // Both are generated from the same description: a tool without rules is a broken build, not an input.
  if (!rules) throw new Error(`the generated operation table has no ${tool.name}`);
  return { tool, rules };
});

/** The wait before trying a refunded failure again: the first step of the description's backoff (`x-retry-backoff`). */
export const firstBackoffMs = (retryBackoff.scheduleSeconds[0] ?? 0) * 1000;

export type { GeneratedTool };
