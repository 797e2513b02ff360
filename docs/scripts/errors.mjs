// The error codes: an index of every code of every surface's `x-error-codes` tables (status, cost, what to do), and a
// page per code with what it means, an example body and the operations that answer it, all read from the descriptions.
// The reference's error responses link to each code's page (reference.mjs).
import { deref } from "@content-scraper/codegen";
import { notDocumented, withoutGapSentences } from "./not-shown.mjs";
import { operations, referenceAnchor } from "./site.mjs";

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

/** Where the index of every code lives, relative to dist/. */
export const errorsPage = "errors.html";

/** The page of one code: `errors/scraper/SCRAPER_RATE_LIMITED.html`, `errors/platform/consent-expired.html`. */
export function codePage(api, table, code) {
  const kind = table.replace(/ErrorCode$/, "").replace(/([a-z])([A-Z])/g, "$1-$2").toLowerCase();
  return `errors/${api}/${kind ? `${kind}-` : ""}${code}.html`;
}

/**
 * The codes an error response can carry, the narrowest the description says: an `error` (or `error.code`) pinned by
 * `const` or by an `enum` of its own, and the codes of its examples; only where neither names any, every code of the
 * code table its schema points at (the shared envelope's). Each with its row's anchor on the index and its own page.
 */
export function responseCodes(api, description, response) {
  const pinned = new Set();
  const whole = new Set();
  const visit = (node, depth) => {
    const schema = deref(description, node);
    if (!schema || typeof schema !== "object" || depth > 6) return;
    const error = deref(description, schema.properties?.error);
    for (const candidate of [error, deref(description, error?.properties?.code)]) {
      if (typeof candidate?.const === "string") pinned.add(candidate.const);
      for (const value of candidate?.enum ?? []) (candidate["x-error-codes"] ? whole : pinned).add(value);
      for (const part of candidate?.allOf ?? []) visit({ properties: { error: part } }, depth + 1);
    }
    for (const part of [...(schema.allOf ?? []), ...(schema.oneOf ?? []), ...(schema.anyOf ?? [])]) visit(part, depth + 1);
  };
  for (const media of Object.values(deref(description, response).content ?? {})) {
    visit(media.schema, 0);
    const examples = [media.example, ...Object.values(media.examples ?? {}).map((example) => deref(description, example).value)];
    for (const value of examples) {
      const code = typeof value?.error === "string" ? value.error : value?.error?.code;
      if (typeof code === "string") pinned.add(code);
    }
  }
  const codes = pinned.size ? pinned : whole;
  const tables = codeTables(description);
  return [...codes].flatMap((code) => {
    const table = tables.find(({ codes: known }) => Object.hasOwn(known, code));
    return table ? [{ code, table: table.name, anchor: codeAnchor(api, table.name, code), page: codePage(api, table.name, code) }] : [];
  });
}

const billingWords = { billed: "billed", free: "free (not charged)", refunded: "refunded automatically" };

/** What to do about a code, from its retry class, its cost and the surface's documented backoff. */
function action(rules, backoff) {
  if (rules.retry === "retry-after") return "Wait exactly the `Retry-After` header's delay, then send the same request again.";
  if (rules.retry === "backoff") {
    const steps = backoff.scheduleSeconds.map((seconds) => (seconds < 120 ? `${seconds} s` : `${seconds / 60} min`)).join(", ");
    return `Retry the same request with backoff: ${steps}, capped at ${backoff.capSeconds / 60} min${backoff.jitter ? ", with jitter" : ""}.`;
  }
  if (rules.retry === "never") {
    return rules.billing === "billed"
      ? "Don't retry: the answer is final, and every retry is billed again."
      : "Don't resend the same request: it gets the same answer. Change what the description above names, then send it again.";
  }
  return undefined;
}

/** The description of every error response that can carry a code, by code: what it means, in the description's words. */
function meanings(api, description) {
  const found = new Map();
  for (const response of Object.values(description.components?.responses ?? {})) {
    if (!response.description) continue;
    for (const { code } of responseCodes(api, description, response)) {
      const list = found.get(code) ?? [];
      if (!list.includes(response.description)) list.push(response.description);
      found.set(code, list);
    }
  }
  return found;
}

/** The examples of the description whose body carries a code, by code. */
function exampleBodies(description) {
  const found = new Map();
  for (const example of Object.values(description.components?.examples ?? {})) {
    const value = example.value;
    const code = typeof value?.error === "string" ? value.error : value?.error?.code;
    if (typeof code === "string" && !found.has(code)) found.set(code, value);
  }
  return found;
}

/** The operations whose responses can carry a code, each with those statuses: `[{ operation, statuses }]` per `${table}/${code}`. */
function answeredBy(api, description) {
  const found = new Map();
  for (const operation of operations(description)) {
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (/^[23]/.test(status)) continue;
      for (const { code, table } of responseCodes(api, description, response)) {
        const list = found.get(`${table}/${code}`) ?? [];
        const entry = list.find((candidate) => candidate.operation === operation);
        if (entry) entry.statuses.push(status);
        else list.push({ operation, statuses: [status] });
        found.set(`${table}/${code}`, list);
      }
    }
  }
  return found;
}

const statusWords = (status) => (status === null ? "not documented" : `\`${status}\``);

/** The section heading of one code table on the index. */
const tableTitle = (title, name) => (name === "ErrorCode" ? title : `${title}: ${name.replace(/ErrorCode$/, "").toLowerCase()} errors`);

/** The index page's Markdown: per surface, per code table, a row per code linking to its page (with its old anchor). */
export function errorsMarkdown(surfaces) {
  const parts = [
    "# Error codes",
    "",
    "Every error code the APIs answer with, what it costs and what to do about it. Branch on the code, never on the message.",
    "Each code has a page with what it means, an example body and the operations that answer it. The reference links each",
    "error response to its code, and [Errors, retries and billing](guides/errors-retries-billing.md) explains the rules.",
    "",
  ];
  for (const { api, title, description } of surfaces) {
    const tables = codeTables(description);
    const backoff = tables.find(({ schema }) => schema["x-retry-backoff"])?.schema["x-retry-backoff"];
    for (const { name, schema, codes } of tables) {
      parts.push(`## ${tableTitle(title, name)}`, "");
      if (schema["x-not-shown"]) parts.push(notDocumented(description, schema["x-not-shown"]), "");
      const billed = Object.values(codes).some((entry) => entry.billing);
      parts.push(billed ? "| Code | Status | Cost | What to do |" : "| Code | Status | What to do |", billed ? "|---|---|---|---|" : "|---|---|---|");
      for (const [code, rules] of Object.entries(codes)) {
        const link = `<a id="${codeAnchor(api, name, code)}" href="${codePage(api, name, code)}"><code>${code}</code></a>`;
        const cost = billed ? ` ${rules.billing === null ? "not documented" : billingWords[rules.billing]} |` : "";
        parts.push(`| ${link} | ${statusWords(rules.status)} |${cost} ${action(rules, backoff) ?? "not documented"} |`);
      }
      parts.push("");
    }
  }
  return parts.join("\n");
}

/**
 * A page per code of every surface: `[{ page, markdown }]`. What it means (the descriptions of the responses that
 * carry it), its status, cost and retry class (the code table), an example body (the description's examples), what to
 * do, and the operations that answer it.
 */
export function errorCodePages(surfaces) {
  return surfaces.flatMap(({ api, title, page: referencePage, description }) => {
    const tables = codeTables(description);
    const backoff = tables.find(({ schema }) => schema["x-retry-backoff"])?.schema["x-retry-backoff"];
    const meaning = meanings(api, description);
    const examples = exampleBodies(description);
    const operationsOf = answeredBy(api, description);
    return tables.flatMap(({ name, schema, codes }) =>
      Object.entries(codes).map(([code, rules]) => {
        const page = codePage(api, name, code);
        const root = "../../";
        const status = rules.status === null ? "a status that is not documented" : `status \`${rules.status}\``;
        const parts = [
          // The status in the title: a reader searching `402` is looking for this page.
          `# \`${code}\`${rules.status === null ? "" : ` (${rules.status})`}`,
          "",
          `<!-- keywords: ${[code, rules.status ?? "", api].join(" ").trim()} -->`,
          "",
          `The ${title} answers \`${code}\` with ${status}${name === "ErrorCode" ? "" : ` (${name.replace(/ErrorCode$/, "").toLowerCase()} errors)`}. Branch on the code, never on the message. [All error codes](${root}errors.md#${codeAnchor(api, name, code)}).`,
          "",
          "## What it means",
          "",
        ];
        const words = (meaning.get(code) ?? []).map(withoutGapSentences).filter(Boolean);
        parts.push(...(words.length ? words.flatMap((text) => [text, ""]) : [withoutGapSentences(schema.description ?? ""), ""]));
        parts.push("## Cost and retry", "");
        const facts = [["Status", statusWords(rules.status)]];
        if (Object.values(codes).some((entry) => entry.billing)) facts.push(["Cost", rules.billing === null ? "not documented" : billingWords[rules.billing]]);
        facts.push(["Retry", { never: "no", "retry-after": "after `Retry-After`", backoff: "with backoff" }[rules.retry] ?? "not documented"]);
        parts.push(`| ${facts.map(([label]) => label).join(" | ")} |`, `|${facts.map(() => "---").join("|")}|`, `| ${facts.map(([, value]) => value).join(" | ")} |`, "");
        if (schema["x-not-shown"] && Object.values(rules).includes(null)) parts.push(notDocumented(description, schema["x-not-shown"]), "");
        parts.push("## Example body", "");
        const example = examples.get(code);
        parts.push(...(example ? ["```json", JSON.stringify(example, null, 2), "```"] : ["The description gives no example body for this code."]), "");
        parts.push("## What to do", "", action(rules, backoff) ?? "The description gives no client action for this code.", "");
        parts.push("[Errors, retries and billing](../../guides/errors-retries-billing.md) explains what each outcome costs and how the clients retry.", "");
        const answering = operationsOf.get(`${name}/${code}`) ?? [];
        if (answering.length) {
          parts.push("## Operations that answer it", "");
          for (const { operation, statuses } of answering) {
            const link = `${root}${referencePage.replace(/\.html$/, ".md")}${referenceAnchor(operation.tags?.[0] ?? "", operation.operationId)}`;
            parts.push(`- [${operation.summary ?? operation.operationId}](${link}): ${statuses.map((answered) => `\`${answered}\``).join(", ")}`);
          }
          parts.push("");
        }
        return { page, markdown: parts.join("\n"), code, api };
      }),
    );
  });
}
