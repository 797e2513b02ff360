// Every tool list the server can offer, checked against the published rules of the two major model hosts' tool APIs:
// one tool that breaks them makes the host refuse the whole request, and with it every tool.
import { readFileSync } from "node:fs";
import { createScraperClient } from "@content-scraper/client";
import { describe, expect, it } from "vitest";
import { createScraperMcp } from "../src/index.js";
import { inMemoryClient } from "./helpers.js";

/**
 * Anthropic's `input_schema` ("does not support oneOf, allOf, or anyOf at the top level") and OpenAI's function
 * `parameters` ("must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/'enum'/'not' at the top level"); both
 * take names of 1 to 64 letters, digits, `_` and `-`. Answers what breaks them.
 */
function hostProblems(tool: { name: string; inputSchema: Record<string, unknown> }): string[] {
  const problems: string[] = [];
  if (!/^[a-zA-Z0-9_-]{1,64}$/.test(tool.name)) problems.push(`${tool.name}: the name`);
  if (tool.inputSchema.type !== "object") problems.push(`${tool.name}: type ${String(tool.inputSchema.type)}`);
  if (typeof tool.inputSchema.properties !== "object") problems.push(`${tool.name}: no properties`);
  for (const keyword of ["oneOf", "anyOf", "allOf", "enum", "not"]) if (keyword in tool.inputSchema) problems.push(`${tool.name}: ${keyword} at the top`);
  return problems;
}

/** Every `--allow` the README and the docs show, as the list the server takes. */
function documentedAllows(): string[][] {
  const texts = [new URL("../README.md", import.meta.url), new URL("../../../docs/pages/guides/mcp-server.md", import.meta.url)].map((file) => readFileSync(file, "utf8"));
  const found = new Set<string>();
  for (const text of texts) {
    for (const [, value] of text.matchAll(/"--allow",\s*"([^"]+)"/g)) found.add(value as string);
    for (const [, value] of text.matchAll(/--allow '([^']+)'/g)) found.add(value as string);
    // The guide's table of examples: `| \`--allow\` | Tools | Size |`, then a row each.
    const table = /^\| `--allow` \| Tools \|.*\n((?:\|.*\n)+)/m.exec(text)?.[1] ?? "";
    for (const [, value] of table.matchAll(/^\| `([^`]+)` \|/gm)) found.add((value as string).replace(/^"|"$/g, ""));
  }
  return [...found].map((list) => list.split(","));
}

describe("the tool lists every major model host accepts", () => {
  const lists = [undefined, ...documentedAllows()];

  it("finds the documented --allow examples", () => {
    expect(lists.length).toBeGreaterThanOrEqual(5);
    expect(lists).toContainEqual(["*Profile", "shortvideo"]);
  });

  it.each(lists.map((allow) => [allow?.join(",") ?? "(all)", allow] as const))("--allow %s", async (_name, allow) => {
    const client = createScraperClient({ apiKey: "scrape_live_host_rules", baseUrl: "http://127.0.0.1:9/api/v1", budget: { maxCredits: 10 } });
    const mcp = await createScraperMcp({ client, allow });
    const agent = await inMemoryClient(mcp);
    try {
      const { tools } = await agent.listTools();
      expect(tools.length).toBeGreaterThan(0);
      expect(tools.flatMap((tool) => hostProblems(tool as never))).toEqual([]);
    } finally {
      await agent.close();
    }
  });
});
