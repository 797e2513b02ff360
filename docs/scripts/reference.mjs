// One reference page per surface, written at build time from its bundled description (spec/dist is read, never
// changed) as Markdown the site renders like every other page: the introduction, servers and authentication, then per
// tag each operation with its parameters, request body, responses (each error linked to its code's page), cost and
// timeout from the operation table, and its request samples as tabs; the schemas and headers the operations name,
// once each. Every section's id is the route Redoc gave it (`#/shortvideo/shortvideoprofile`), so links made for the
// Redoc pages still land. Nothing here knows an operation by name: a change to the descriptions flows in.
import { deref, operationTable } from "@content-scraper/codegen";
import { responseCodes } from "./errors.mjs";
import { notDocumented, withoutGapSentences } from "./not-shown.mjs";
import { operations, referenceAnchor } from "./site.mjs";

/** The route of a component's section: `#/schemas/PostsRequest`, `#/headers/Retry-After`. */
export const componentAnchor = (kind, name) => `#/${kind}/${name}`;

/** "[Quick start](../guides/quick-start.md), …": Markdown links from a reference page. */
const guideLinks = (list) => list.map(({ title, page }) => `[${title}](../${page.replace(/\.html$/, ".md")})`).join(", ");

/** A description's words on one line, for a table cell: gap sentences out, pipes escaped. */
const cell = (text) =>
  withoutGapSentences(text ?? "")
    .replace(/\s*\n\s*/g, " ")
    .replace(/\|/g, "\\|")
    .trim();

/** A description's words as Markdown paragraphs, without the gap sentences (the callout says the gap once). */
const prose = (text) => withoutGapSentences(text ?? "");

/** The first sentence of a text: up to a `.`, `!` or `?` before a space or the end (a dot inside code does not end one). */
const firstSentence = (text) => /^[\s\S]*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;

const code = (value) => `\`${String(value).replace(/`/g, "")}\``;

/** The gap callout of a node, if it marks one. */
const gapOf = (description, node) => (typeof node?.["x-not-shown"] === "string" ? notDocumented(description, node["x-not-shown"]) : "");

/**
 * Writes one surface's page. `samples` are its generated samples, `guides` the `{ title, page }` of the guides about it,
 * `pagingGuide` the guide on walking pages.
 */
export function referenceMarkdown({ api, title, description }, { samples, guides, pagingGuide }) {
  const table = operationTable(description);
  const version = /^\d/.test(String(description.info.version)) ? description.info.version : "";
  const linked = new Map([
    ["schemas", new Set()],
    ["headers", new Set()],
  ]);
  const context = { api, description, linked };
  const parts = [`# ${title}`, ""];
  if (description.info.summary) parts.push(`${description.info.summary}`, "");
  if (version) parts.push(`Version ${code(version)} of the description.`, "");
  parts.push(prose(description.info.description), "", gapOf(description, description.info), "");

  parts.push("## Servers {#/servers}", "");
  for (const server of description.servers ?? []) {
    parts.push(`- ${code(server.url)}: ${cell(server.description)}`);
    for (const [name, variable] of Object.entries(server.variables ?? {})) {
      parts.push(`  - ${code(`{${name}}`)}: default ${code(variable.default)}${variable.description ? `. ${cell(variable.description)}` : ""}`);
    }
    if (server["x-not-shown"]) parts.push("", gapOf(description, server), "");
  }
  parts.push("", ...authentication(context), "");
  if (guides.length) parts.push("## Guides {#/guides}", "", ...guides.map((guide) => `- ${guideLinks([guide])}`), "");

  const samplesById = new Map(samples.map((entry) => [entry.request.operationId, entry]));
  const all = operations(description);
  const tags = [...(description.tags ?? [])];
  for (const name of new Set(all.map((operation) => operation.tags?.[0] ?? ""))) if (!tags.some((tag) => tag.name === name)) tags.push({ name });
  for (const tag of tags) {
    parts.push(`## ${tag.name || "Operations"} {${referenceAnchor(tag.name)}}`, "", prose(tag.description), "", gapOf(description, tag), "");
    for (const operation of all.filter((candidate) => (candidate.tags?.[0] ?? "") === tag.name)) {
      parts.push(...operationSection(context, operation, { rules: table.operations[operation.operationId], sampled: samplesById.has(operation.operationId), pagingGuide }));
    }
  }
  const unlisted = Object.entries(description.paths ?? {}).filter(([, item]) => !operations({ paths: { x: item } }).length);
  if (unlisted.length) {
    parts.push("## Paths without documented operations {#/paths}", "");
    for (const [path, item] of unlisted) parts.push(`- ${code(path)}: ${cell(item.description)}`, "", gapOf(description, item), "");
  }
  parts.push(...components(context));
  return parts.filter((line, index, list) => line !== "" || list[index - 1] !== "").join("\n");
}

function authentication({ description }) {
  const schemes = Object.entries(description.components?.securitySchemes ?? {});
  if (!schemes.length) return [];
  const lines = ["## Authentication {#/authentication}", ""];
  for (const [name, scheme] of schemes) {
    const where = scheme.type === "apiKey" ? `API key in the ${code(scheme.name)} ${scheme.in}` : scheme.type === "oauth2" ? "OAuth 2" : `HTTP ${scheme.scheme ?? scheme.type}`;
    lines.push(`### ${name} {#/authentication/${name}}`, "", `${where}.`, "", prose(scheme.description), "", gapOf(description, scheme), "");
    for (const [flowName, flow] of Object.entries(scheme.flows ?? {})) {
      const urls = [["Authorization URL", flow.authorizationUrl], ["Token URL", flow.tokenUrl], ["Refresh URL", flow.refreshUrl]].filter(([, url]) => url);
      lines.push(`Flow ${code(flowName)}: ${urls.map(([label, url]) => `${label} ${code(url)}`).join(", ")}.`, "");
      const scopes = Object.entries(flow.scopes ?? {});
      if (scopes.length) lines.push("| Scope | Grants |", "|---|---|", ...scopes.map(([scope, words]) => `| ${code(scope)} | ${cell(words)} |`), "");
    }
  }
  return lines;
}

/** Cost, timeout, paging and idempotency of an operation, from the operation table. */
function facts(rules) {
  const list = [];
  if (rules?.credits) list.push(`Costs ${rules.credits.standard} credit${rules.credits.standard === 1 ? "" : "s"}${rules.credits.accountRate ? " at the standard rate (your account's rate may differ; `X-Scraper-Credits-Charged` says what was charged)" : ""}`);
  if (rules?.timeoutMs) list.push(`recommended client timeout ${rules.timeoutMs / 1000} s`);
  if (rules?.paging) list.push(rules.paging.mode === "cursor" ? "pages with a cursor" : "answers a single page");
  if (rules?.idempotency) list.push(`an \`Idempotency-Key\` is ${rules.idempotency}`);
  if (rules?.security?.length === 0) list.push("takes no credential");
  return list.length ? `${list.join("; ").replace(/^./, (first) => first.toUpperCase())}.` : "";
}

function operationSection(context, operation, { rules, sampled, pagingGuide }) {
  const { api, description } = context;
  const anchor = referenceAnchor(operation.tags?.[0] ?? "", operation.operationId);
  const lines = [`### ${operation.summary ?? operation.operationId} {${anchor}}`, ""];
  lines.push(`${operation.deprecated ? "**Deprecated.** " : ""}${code(`${operation.method.toUpperCase()} ${operation.path}`)} · ${code(operation.operationId)}`, "");
  lines.push(prose(operation.description), "", gapOf(description, operation), "");
  const fact = facts(rules);
  if (fact) lines.push(fact, "");
  if (rules?.paging && pagingGuide) lines.push(`Walking every page: ${guideLinks([pagingGuide])}.`, "");

  const parameters = [...(operation.parameters ?? [])].map((parameter) => deref(description, parameter));
  if (parameters.length) {
    lines.push("#### Parameters", "", "| Name | In | Type | Description |", "|---|---|---|---|");
    for (const parameter of parameters) {
      const words = [parameter.required ? "**Required.**" : "", cell(parameter.description), constraints(context, parameter.schema), gapOf(description, parameter)];
      lines.push(`| ${code(parameter.name)} | ${parameter.in} | ${typeOf(context, parameter.schema)} | ${words.filter(Boolean).join(" ")} |`);
    }
    lines.push("");
  }

  const body = deref(description, operation.requestBody);
  if (body) {
    lines.push("#### Request body", "");
    for (const [mediaType, media] of Object.entries(body.content ?? {})) {
      const schema = media.schema ?? {};
      lines.push(`${code(mediaType)}${body.required ? ", required" : ", optional"}${schema.$ref ? `: ${typeOf(context, schema)}` : ""}. ${cell(body.description)}`, "", gapOf(description, body), gapOf(description, deref(description, schema)), "");
      lines.push(...fieldTable(context, schema));
      const example = exampleOf(description, media);
      if (example !== undefined) lines.push("Example:", "", "```example", JSON.stringify(example, null, 2), "```", "");
    }
  }

  lines.push("#### Responses", "");
  const billed = rules && Object.keys(rules.billing ?? {}).length > 0;
  lines.push(billed ? "| Status | Cost | Description |" : "| Status | Description |", billed ? "|---|---|---|" : "|---|---|");
  const details = [];
  for (const [status, reference] of Object.entries(operation.responses ?? {})) {
    const response = deref(description, reference);
    const codes = /^[23]/.test(status) ? [] : responseCodes(api, description, reference);
    const errorLinks = codes.length ? ` Error ${codes.length > 1 ? "codes" : "code"}: ${codes.map(({ code: name, page }) => `[${code(name)}](../${page.replace(/\.html$/, ".md")})`).join(", ")}.` : "";
    // A shared response says its first sentence here; its codes' pages say the rest.
    const text = reference.$ref ? firstSentence(cell(response.description)) : cell(response.description);
    const words = `${text}${errorLinks} ${gapOf(description, response)}`.trim();
    const cost = billed ? ` ${billingWords[rules.billing[status]] ?? ""} |` : "";
    lines.push(`| ${code(status)} |${cost} ${words} |`);
    if (/^2/.test(status)) details.push([status, response]);
  }
  lines.push("");
  for (const [status, response] of details) {
    const headers = Object.entries(response.headers ?? {}).map(([name, header]) => headerLink(context, name, header));
    const content = Object.entries(response.content ?? {});
    if (!headers.length && !content.length) continue;
    lines.push(`#### ${status} response`, "");
    if (headers.length) lines.push(`Headers: ${headers.join(", ")}.`, "");
    for (const [mediaType, media] of content) {
      const schema = media.schema ?? {};
      lines.push(`${code(mediaType)}${schema.$ref ? `: ${typeOf(context, schema)}` : ""}.`, "", gapOf(description, deref(description, schema)), "");
      lines.push(...fieldTable(context, schema));
      const example = exampleOf(description, media);
      if (example !== undefined) lines.push("Example:", "", "```example", JSON.stringify(example, null, 2), "```", "");
    }
  }
  if (sampled) {
    // The console opens on this operation (the site script wires the button; the page's Markdown leaves it out).
    lines.push("#### Request samples", "", `<p class="try-it-open"><button class="try-button" type="button" aria-haspopup="dialog" data-operation="${operation.operationId}">Try it</button></p>`, "");
    lines.push(`<!-- samples: ${api}/${operation.operationId} -->`, "");
  }
  return lines;
}

const billingWords = { billed: "billed", free: "free", refunded: "refunded", "by-code": "by code" };

const exampleOf = (description, media) => media?.example ?? Object.values(media?.examples ?? {}).map((example) => deref(description, example).value)[0];

function headerLink({ linked, description }, name, header) {
  if (header.$ref?.startsWith("#/components/headers/")) {
    const component = header.$ref.split("/").at(-1);
    linked.get("headers").add(component);
    return `[${code(name)}](${componentAnchor("headers", component)})`;
  }
  return `${code(name)}${deref(description, header).description ? ` (${cell(deref(description, header).description)})` : ""}`;
}

/** A schema's type in words, with named schemas linked to their section. */
function typeOf(context, node, depth = 0) {
  if (!node || typeof node !== "object") return "any";
  if (node.$ref?.startsWith("#/components/schemas/")) {
    const name = node.$ref.split("/").at(-1);
    context.linked.get("schemas").add(name);
    return `[${name}](${componentAnchor("schemas", name)})`;
  }
  const schema = deref(context.description, node);
  if (depth > 4) return "object";
  if (schema.const !== undefined) return code(JSON.stringify(schema.const));
  const union = schema.oneOf ?? schema.anyOf;
  if (union) return union.map((part) => typeOf(context, part, depth + 1)).join(" or ");
  if (schema.allOf?.length === 1) return typeOf(context, schema.allOf[0], depth + 1);
  const types = [schema.type ?? (schema.properties || schema.allOf ? "object" : undefined)].flat().filter(Boolean);
  if (!types.length) return "any";
  return types
    .map((type) => (type === "array" ? `array of ${typeOf(context, schema.items, depth + 1)}` : `${type}${schema.format ? ` (${schema.format})` : ""}`))
    .join(" or ");
}

/** The limits and allowed values of a schema, in words. */
function constraints(context, node) {
  const schema = deref(context.description, node ?? {});
  if (!schema || typeof schema !== "object") return "";
  const list = [];
  if (schema.enum) list.push(`One of ${schema.enum.map((value) => code(JSON.stringify(value))).join(", ")}.`);
  const bounds = [
    ["minLength", "at least", "characters"],
    ["maxLength", "at most", "characters"],
    ["minimum", "minimum"],
    ["maximum", "maximum"],
    ["minItems", "at least", "items"],
    ["maxItems", "at most", "items"],
  ].filter(([key]) => schema[key] !== undefined);
  if (bounds.length) list.push(`${bounds.map(([key, words, unit]) => `${words} ${schema[key]}${unit ? ` ${unit}` : ""}`).join(", ").replace(/^./, (first) => first.toUpperCase())}.`);
  if (schema.pattern) list.push(`Pattern ${code(schema.pattern)}.`);
  if (schema.default !== undefined) list.push(`Default ${code(JSON.stringify(schema.default))}.`);
  return list.join(" ");
}

/** The properties of an object schema, `allOf` parts merged: `{ properties, required }`. */
function propertiesOf(description, node, depth = 0) {
  const schema = deref(description, node);
  const merged = { properties: { ...(schema?.properties ?? {}) }, required: new Set(schema?.required ?? []) };
  if (depth < 6) {
    for (const part of schema?.allOf ?? []) {
      const inner = propertiesOf(description, part, depth + 1);
      Object.assign(merged.properties, inner.properties);
      for (const name of inner.required) merged.required.add(name);
    }
  }
  return merged;
}

/** Rows `| Field | Type | Description |` of a schema's fields; inline objects and arrays of them as dotted names. */
function fieldRows(context, node, prefix = "", depth = 0) {
  const { properties, required } = propertiesOf(context.description, node);
  return Object.entries(properties).flatMap(([name, property]) => {
    const schema = deref(context.description, property);
    const words = [required.has(name) ? "**Required.**" : "", schema.deprecated ? "**Deprecated.**" : "", cell(schema.description), constraints(context, property), gapOf(context.description, schema)];
    const row = `| ${code(`${prefix}${name}`)} | ${typeOf(context, property)} | ${words.filter(Boolean).join(" ")} |`;
    if (property.$ref || depth > 3) return [row];
    const inner = schema.type === "array" && schema.items && !schema.items.$ref ? [schema.items, `${prefix}${name}[].`] : [schema, `${prefix}${name}.`];
    const nested = Object.keys(propertiesOf(context.description, inner[0]).properties).length ? fieldRows(context, inner[0], inner[1], depth + 1) : [];
    return [row, ...nested];
  });
}

function fieldTable(context, node) {
  const rows = fieldRows(context, node);
  return rows.length ? ["| Field | Type | Description |", "|---|---|---|", ...rows, ""] : [];
}

/** The schemas and headers the page links to, each once, with those they link to in turn. */
function components(context) {
  const { description, linked } = context;
  const lines = [];
  const done = new Set();
  const schemas = linked.get("schemas");
  const sections = [];
  while ([...schemas].some((name) => !done.has(name))) {
    for (const name of [...schemas].filter((candidate) => !done.has(candidate)).sort()) {
      done.add(name);
      const schema = description.components.schemas[name];
      const section = [`### ${name} {${componentAnchor("schemas", name)}}`, "", prose(schema.description), "", gapOf(description, schema), ""];
      const fields = fieldTable(context, schema);
      if (fields.length) section.push(...fields);
      else section.push(`Type: ${typeOf(context, schema)}. ${constraints(context, schema)}`, "");
      if (schema["x-error-codes"]) section.push(`Each code has a page of its own: see [Error codes](../errors.md).`, "");
      sections.push([name, section]);
    }
  }
  if (sections.length) lines.push("## Schemas {#/schemas}", "", ...sections.sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([, section]) => section));
  const headers = [...linked.get("headers")].sort();
  if (headers.length) {
    lines.push("## Headers {#/headers}", "", "| Header | Type | Description |", "|---|---|---|");
    for (const name of headers) {
      const header = description.components.headers[name];
      lines.push(`| <span id="${componentAnchor("headers", name).slice(1)}">${code(name)}</span> | ${typeOf(context, header.schema)} | ${cell(header.description)} ${gapOf(description, header)} |`);
    }
    lines.push("");
  }
  return lines;
}
