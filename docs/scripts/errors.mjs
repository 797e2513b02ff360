// The error-code page: every code of every surface's `x-error-codes` tables, one anchor each, with its status, what it
// costs and what to do, read from the descriptions. The reference's responses link here (reference.mjs).
import { deref } from "@content-scraper/codegen";
import { notDocumented, withoutGapSentences } from "./not-shown.mjs";

/** The code tables of a description: the schemas that carry `x-error-codes` (`ErrorCode`, `ConsentErrorCode`, …). */
export function codeTables(description) {
  return Object.entries(description.components?.schemas ?? {})
    .filter(([, schema]) => schema["x-error-codes"])
    .map(([name, schema]) => ({ name, schema, codes: schema["x-error-codes"] }));
}

/** The page's anchor of a code: `scraper-INVALID_INPUT`, or with the table's name, `platform-consent-expired`. */
export function codeAnchor(api, table, code) {
  const kind = table.replace(/ErrorCode$/, "").replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
  return [api, kind, code].filter(Boolean).join("-");
}

/** Where the page lives, relative to dist/. */
export const errorsPage = "errors.html";

/**
 * The codes an error response can carry: an `error` (or `error.code`) pinned by `const` or `enum` in its schema, and
 * the codes of its examples. Each with the anchor of its row on the error-code page.
 */
export function responseCodes(api, description, response) {
  const codes = new Set();
  const visit = (node, depth) => {
    const schema = deref(description, node);
    if (!schema || typeof schema !== "object" || depth > 6) return;
    const error = deref(description, schema.properties?.error);
    for (const candidate of [error, deref(description, error?.properties?.code)]) {
      if (typeof candidate?.const === "string") codes.add(candidate.const);
      for (const value of candidate?.enum ?? []) codes.add(value);
      for (const part of candidate?.allOf ?? []) visit({ properties: { error: part } }, depth + 1);
    }
    for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) visit(part, depth + 1);
  };
  for (const media of Object.values(deref(description, response).content ?? {})) {
    if (!(media.schema?.$ref ?? "").endsWith("/ErrorEnvelope") || media.examples) visit(media.schema, 0);
    const examples = [media.example, ...Object.values(media.examples ?? {}).map((example) => deref(description, example).value)];
    for (const value of examples) {
      const code = typeof value?.error === "string" ? value.error : value?.error?.code;
      if (typeof code === "string") codes.add(code);
    }
  }
  const tables = codeTables(description);
  return [...codes].flatMap((code) => {
    const table = tables.find(({ codes: known }) => Object.hasOwn(known, code));
    return table ? [{ code, anchor: codeAnchor(api, table.name, code) }] : [];
  });
}

const billingWords = { billed: "billed", free: "free", refunded: "refunded automatically" };

/** What to do about a code, from its retry class and the surface's documented backoff. */
function action(retry, backoff) {
  if (retry === "never") return "Don't retry it as is.";
  if (retry === "retry-after") return "Wait exactly `Retry-After`, then retry.";
  if (retry === "backoff") {
    const steps = backoff.scheduleSeconds.map((seconds) => (seconds < 120 ? `${seconds} s` : `${seconds / 60} min`)).join(", ");
    return `Retry with backoff: ${steps}, capped at ${backoff.capSeconds / 60} min${backoff.jitter ? ", with jitter" : ""}.`;
  }
  return undefined;
}

/** The descriptions of the error responses that pin one code, by code: the condition in the description's words. */
function conditions(api, description) {
  const found = new Map();
  for (const response of Object.values(description.components?.responses ?? {})) {
    const codes = responseCodes(api, description, response);
    if (codes.length === 1 && response.description && !found.has(codes[0].code)) found.set(codes[0].code, response.description);
  }
  return found;
}

/**
 * The page's Markdown: per surface, per code table, a section per code with its anchor. `version` names the surface's
 * version in the gap notes.
 */
export function errorsMarkdown(surfaces) {
  const parts = [
    "# Error codes",
    "",
    "Every error code the APIs answer with, what it costs and what to do about it. Branch on the code, never on the message.",
    "The reference links each error response here, and [Errors, retries and billing](guides/errors-retries-billing.md) explains",
    "the rules behind the table.",
    "",
  ];
  for (const { api, title, description } of surfaces) {
    const tables = codeTables(description);
    if (!tables.length) continue;
    const backoff = tables.find(({ schema }) => schema["x-retry-backoff"])?.schema["x-retry-backoff"];
    const when = conditions(api, description);
    for (const { name, schema, codes } of tables) {
      const heading = name === "ErrorCode" ? title : `${title}: ${name.replace(/ErrorCode$/, "").toLowerCase()} errors`;
      parts.push(`## ${heading}`, "");
      if (schema["x-not-shown"]) parts.push(notDocumented(description, schema["x-not-shown"]), "");
      const billed = Object.values(codes).some((entry) => entry.billing);
      for (const [code, rules] of Object.entries(codes)) {
        const facts = [
          ["Status", rules.status === null ? "not documented" : `\`${rules.status}\``],
          ...(billed ? [["Cost", rules.billing === null ? "not documented" : billingWords[rules.billing]]] : []),
          ["What to do", action(rules.retry, backoff) ?? "not documented"],
        ];
        parts.push(`### \`${code}\` {#${codeAnchor(api, name, code)}}`, "");
        if (when.has(code)) parts.push(withoutGapSentences(when.get(code)).replace(/\s*\n\s*/g, " "), "");
        parts.push(`| ${facts.map(([label]) => label).join(" | ")} |`, `|${facts.map(() => "---").join("|")}|`, `| ${facts.map(([, value]) => value).join(" | ")} |`, "");
      }
    }
  }
  return parts.join("\n");
}
