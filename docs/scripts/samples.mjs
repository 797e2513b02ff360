// Request samples for every operation of every surface, generated from the description: the operation table
// (method, path, timeout, servers, security) and the request examples. Nothing here is written per operation: the
// rules below are the clients' calling conventions. The build writes them to dist/samples/ (type-checked there) and
// into the reference pages as tabs; test/samples.test.ts runs every one against the sandbox.
import { deref, isFocused, operationTable } from "@content-scraper/codegen";
import { notDocumentedText } from "./not-shown.mjs";
import { operations } from "./site.mjs";

const methods = ["get", "put", "post", "delete", "patch"];

/** The languages, in the order the reference's tabs show them: file extension and tab label. */
export const languages = [
  { id: "curl", extension: "sh", label: "curl" },
  { id: "client", extension: "client.ts", label: "TypeScript (client)" },
  { id: "fetch", extension: "fetch.ts", label: "TypeScript (fetch)" },
  { id: "python", extension: "py", label: "Python (requests)" },
];

/**
 * The environment variables a surface's samples read: its base URL (as the sandbox prints it) and its credential, of
 * the scheme the description requires by default (a surface may describe others, such as a client's Basic secret).
 */
export function environment(api, description) {
  const prefix = api.toUpperCase().replace(/\W/g, "_");
  const schemes = description.components?.securitySchemes ?? {};
  const required = Object.keys(description.security?.find((requirement) => Object.keys(requirement).length) ?? {})[0];
  const scheme = schemes[required] ?? Object.values(schemes)[0];
  const credential = scheme?.type === "oauth2" ? `${prefix}_ACCESS_TOKEN` : `${prefix}_API_KEY`;
  return { baseUrl: `${prefix}_BASE_URL`, credential };
}

/** The clients of our packages, per surface: how to create one, and which methods call an operation by name. */
const clients = {
  scraper: {
    module: "@content-scraper/client",
    factory: "createScraperClient",
    variable: "scraper",
    // The scraper client reads SCRAPER_BASE_URL and SCRAPER_API_KEY itself.
    options: () => "",
  },
  platform: {
    module: "@content-scraper/platform",
    factory: "createPlatformClient",
    variable: "platform",
    options: (env) => `{ baseUrl: ${env.baseUrl}, accessToken: ${env.credential} }`,
  },
  "platform-legacy": {
    module: "@content-scraper/platform",
    factory: "createLegacyClient",
    variable: "legacy",
    options: (env) => `{ baseUrl: ${env.baseUrl}, apiKey: ${env.credential} }`,
  },
  connect: {
    module: "@content-scraper/connect",
    factory: "createConnectClient",
    variable: "connect",
    options: (env) => `{ baseUrl: ${env.baseUrl}, apiKey: ${env.credential} }`,
  },
};

const exampleOf = (description, media) =>
  media?.example ?? Object.values(media?.examples ?? {}).map((example) => deref(description, example).value)[0];

const parameterExample = (parameter) => parameter.example ?? parameter.schema?.example ?? parameter.schema?.examples?.[0];

/**
 * What one operation's samples send, from the description alone: the URL parts, the parameters and the body from the
 * examples, the credential the operation needs, the recommended timeout, and the statuses that document success.
 */
export function requests(api, description) {
  const table = operationTable(description);
  const env = environment(api, description);
  const basePath = new URL(description.servers[0].url.replace(/\{[^}]*\}/g, "host")).pathname.replace(/\/$/, "");
  return Object.entries(description.paths ?? {}).flatMap(([path, item]) =>
    methods
      .filter((method) => item[method])
      .map((method) => {
        const operation = item[method];
        const rules = table.operations[operation.operationId];
        const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => deref(description, parameter));
        const valued = (place) =>
          parameters
            .filter((parameter) => parameter.in === place && parameterExample(parameter) !== undefined)
            .map((parameter) => [parameter.name, String(parameterExample(parameter))]);
        const pathParams = Object.fromEntries(valued("path"));
        for (const name of path.match(/\{([^}]+)\}/g) ?? []) {
          if (!(name.slice(1, -1) in pathParams)) throw new Error(`${operation.operationId}: path parameter ${name} has no example`);
        }
        const requestBody = deref(description, operation.requestBody);
        const [mediaType, media] = Object.entries(requestBody?.content ?? {})[0] ?? [];
        const body = exampleOf(description, deref(description, media));
        if (requestBody?.required && body === undefined) throw new Error(`${operation.operationId}: its request body has no example`);
        // A body whose fields are a gap: the sample sends the example (an empty object) and says why.
        // (Only where the example has no fields: a gap about one field or one option leaves a real example.)
        const placeholder = body === undefined || (typeof body === "object" && body !== null && !Object.keys(body).length);
        const bodyGap = placeholder ? [requestBody, media, deref(description, media?.schema)].map((node) => node?.["x-not-shown"]).find(Boolean) : undefined;
        const ownServer = rules.server !== undefined;
        return {
          api,
          operationId: operation.operationId,
          method: method.toUpperCase(),
          // A path relative to the base URL, or to the host's root for an operation served there.
          path: path.replace(/\{([^}]+)\}/g, (_match, name) => encodeURIComponent(pathParams[name])),
          template: path,
          pathParams,
          basePath: ownServer ? basePath : "",
          query: valued("query"),
          headers: valued("header"),
          mediaType,
          body,
          bodyNote: bodyGap && notDocumentedText(description, bodyGap),
          credential: rules.security?.length === 0 ? undefined : env.credential,
          credentialHeader: credentialHeader(description, rules),
          timeoutMs: rules.timeoutMs,
          env,
          rules,
          success: Object.keys(operation.responses).filter((status) => /^[23]/.test(status)),
          // The media type of the documented success body, if it has one.
          successMedia: Object.entries(operation.responses)
            .filter(([status]) => /^2/.test(status))
            .flatMap(([, response]) => Object.keys(deref(description, response).content ?? {}))[0],
        };
      }),
  );
}

/** `x-api-key`, or `authorization` for a bearer token; undefined where the operation takes no credential. */
function credentialHeader(description, rules) {
  if (rules.security?.length === 0) return undefined;
  const [name] = rules.security ?? Object.keys(description.security?.[0] ?? {});
  const scheme = description.components.securitySchemes[name];
  return scheme.type === "apiKey" ? { name: scheme.name, bearer: false } : { name: "authorization", bearer: true };
}

const redirects = (request) => request.success.every((status) => status.startsWith("3"));
const json = (value) => JSON.stringify(value);
const shellQuote = (text) => `'${text.replace(/'/g, "'\\''")}'`;
const query = (request) => (request.query.length ? `?${new URLSearchParams(request.query)}` : "");
const formBody = (request) => request.mediaType === "application/x-www-form-urlencoded";

/** The names of the environment variables a sample reads: the base URL, and the credential where the operation takes one. */
const variables = (request) => [request.env.baseUrl, ...(request.credential ? [request.credential] : [])];

/**
 * The comment lines every sample starts with (`#` or `//`): the variables it reads, and what it does not know about its
 * body. A reader pasting one sample learns what to set, and no sample sends a placeholder body without saying so.
 */
function header(request, comment, names = variables(request)) {
  const lines = [`Reads ${names.slice(0, -1).join(", ")}${names.length > 1 ? " and " : ""}${names.at(-1)} from the environment.`];
  if (request.bodyNote) lines.push(`${request.bodyNote.replace(/\.?$/, ".")} This sends the example body, ${JSON.stringify(request.body)}: add the fields your integration needs.`);
  return lines.map((line) => `${comment} ${line}\n`).join("");
}

function curl(request) {
  const { env } = request;
  const base = request.basePath ? `\${${env.baseUrl}%${request.basePath}}` : `$${env.baseUrl}`;
  const lines = [`curl -sS${redirects(request) ? " -i" : ""}${request.timeoutMs ? ` --max-time ${request.timeoutMs / 1000}` : ""} -X ${request.method} "${base}${request.path}${query(request)}"`];
  if (request.credentialHeader) {
    const value = request.credentialHeader.bearer ? `Bearer $${request.credential}` : `$${request.credential}`;
    lines.push(`-H "${request.credentialHeader.name}: ${value}"`);
  }
  for (const [name, value] of request.headers) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (request.body !== undefined) {
    if (formBody(request)) {
      for (const [name, value] of Object.entries(request.body)) lines.push(`--data-urlencode ${shellQuote(`${name}=${value}`)}`);
    } else {
      lines.push(`-H "content-type: ${request.mediaType}"`, `--data ${shellQuote(json(request.body))}`);
    }
  }
  return `${header(request, "#")}${lines.join(" \\\n  ")}\n`;
}

/** The sample's environment variables, destructured, so the TypeScript reads as plain strings. */
const tsEnvironment = (names) => `const { ${names.map((name) => `${name} = ""`).join(", ")} } = process.env;\n`;

function tsUrl(request) {
  const path = `${request.path}${query(request)}`;
  return request.basePath ? `new URL(${json(path)}, ${request.env.baseUrl})` : `\`\${${request.env.baseUrl}}${path}\``;
}

function fetchSample(request) {
  const names = variables(request);
  const headers = Object.fromEntries(request.headers);
  const headerLines = Object.entries(headers).map(([name, value]) => `${json(name)}: ${json(value)}`);
  if (request.credentialHeader) {
    const value = request.credentialHeader.bearer ? `\`Bearer \${${request.credential}}\`` : request.credential;
    headerLines.unshift(`${json(request.credentialHeader.name)}: ${value}`);
  }
  let body = "";
  if (request.body !== undefined) {
    headerLines.push(`"content-type": ${json(request.mediaType)}`);
    body = formBody(request) ? `new URLSearchParams(${ts(request.body)})` : `JSON.stringify(${ts(request.body)})`;
  }
  const init = [`method: ${json(request.method)}`];
  if (headerLines.length) init.push(`headers: { ${headerLines.join(", ")} }`);
  if (body) init.push(`body: ${body}`);
  if (redirects(request)) init.push(`redirect: "manual"`);
  if (request.timeoutMs) init.push(`signal: AbortSignal.timeout(${request.timeoutMs})`);
  const answer = redirects(request)
    ? `response.headers.get("location")`
    : request.successMedia?.includes("json")
      ? "await response.json()"
      : "await response.text()";
  return `${header(request, "//")}${tsEnvironment(names)}
const response = await fetch(${tsUrl(request)}, {
  ${init.join(",\n  ")},
});
console.log(response.status, ${answer});
`;
}

/** A focused operation's method on its platform's focused client: its path's last segment in camel case (`searchSuggestions`). */
const focusedMethodName = (resource) => resource.replace(/-([a-z])/g, (_match, letter) => letter.toUpperCase());

/**
 * The focused operations per platform, in the description's order, as `focusedClient(scraper, platform)` offers them:
 * `{ shortvideo: [{ method, operationId, summary, tag, bodyRequired }] }`.
 */
export function focusedMethods(description) {
  const table = operationTable(description);
  const found = {};
  for (const operation of operations(description)) {
    const rules = table.operations[operation.operationId];
    if (!rules || !isFocused(rules)) continue;
    found[rules.platform] ??= [];
    found[rules.platform].push({
      method: focusedMethodName(rules.resource),
      operationId: operation.operationId,
      summary: operation.summary,
      tag: rules.tag,
      bodyRequired: rules.requestBodyRequired,
    });
  }
  return found;
}

/**
 * The scraper client's call of an operation: a method of the client for the normalized resources, of the platform's
 * focused client (`@content-scraper/client/focused`) for the focused operations.
 */
function scraperCall(request) {
  const { platform, resource } = request.rules;
  const body = request.body ?? {};
  const options = (entries) => {
    const present = entries.filter(([, value]) => value !== undefined);
    return present.length ? `, { ${present.map(([name, value]) => `${name}: ${json(value)}`).join(", ")} }` : "";
  };
  switch (resource) {
    case "profile":
      return `scraper.profile(${json(platform)}, ${json(body.username)})`;
    case "posts":
      return `scraper.posts(${json(platform)}, ${json(body.username)}${options([["cursor", body.cursor], ["contentType", body.contentType]])})`;
    case "post":
      return `scraper.post(${json(platform)}, ${json(body.url)}${options([["includeTranscript", body.include_transcript], ["includeComments", body.include_comments]])})`;
    case "audience":
      return `scraper.audience(${json(platform)}, ${ts(body)})`;
  }
  if (!isFocused(request.rules)) throw new Error(`${request.operationId}: no scraper client method calls it`);
  const method = focusedMethodName(resource);
  const empty = !request.rules.requestBodyRequired && Object.keys(body).length === 0;
  return `focusedClient(scraper, ${json(platform)}).${method}(${empty ? "" : ts(body)})`;
}

/** The platform clients: a method named after the operation where there is one, else the typed `api` door. */
function platformCall(request, client, methodNames) {
  const variable = client.variable;
  if (methodNames.has(request.operationId)) {
    const args = Object.values(request.pathParams).map(json);
    if (request.mediaType) args.push(ts(request.body ?? {}));
    const options = [...request.query, ...request.headers.filter(([name]) => name.toLowerCase() === "idempotency-key")].map(([name, value]) =>
      name.toLowerCase() === "idempotency-key" ? `idempotencyKey: ${json(value)}` : `${name}: ${/^\d+$/.test(value) ? value : json(value)}`,
    );
    if (options.length) args.push(`{ ${options.join(", ")} }`);
    return { call: `${variable}.${request.operationId}(${args.join(", ")})`, door: false };
  }
  const init = [];
  const params = [];
  if (Object.keys(request.pathParams).length) params.push(`path: ${ts(request.pathParams)}`);
  if (request.query.length) params.push(`query: ${ts(Object.fromEntries(request.query))}`);
  const headers = Object.fromEntries(request.headers);
  if (params.length) init.push(`params: { ${params.join(", ")} }`);
  if (request.body !== undefined) init.push(`body: ${ts(request.body)}`);
  if (formBody(request)) {
    headers["content-type"] = request.mediaType;
    init.push("bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString()");
  }
  if (Object.keys(headers).length) init.push(`headers: ${ts(headers)}`);
  if (redirects(request)) init.push(`redirect: "manual"`);
  const args = [json(request.template), ...(init.length ? [`{\n  ${init.join(",\n  ")},\n}`] : [])];
  return { call: `${variable}.api.${request.method}(${args.join(", ")})`, door: true };
}

function clientSample(request, methodNames) {
  const client = clients[request.api];
  const { env } = request;
  if (request.api === "scraper") {
    const focused = isFocused(request.rules) ? `import { focusedClient } from "${client.module}/focused";\n` : "";
    // createScraperClient() reads both variables itself.
    return `${header(request, "//", [env.baseUrl, env.credential])}import { createScraperClient } from "${client.module}";
${focused}
const scraper = createScraperClient();
const { data, meta } = await ${scraperCall(request)};
console.log(data, meta.creditsCharged, meta.creditsRemaining);
`;
  }
  const { call, door } = platformCall(request, client, methodNames);
  const print = !door
    ? "console.log(meta.status, data);"
    : redirects(request)
      ? `console.log(response.status, response.headers.get("location"));`
      : "console.log(response.status, data);";
  const result = door ? (redirects(request) ? "{ response }" : "{ data, response }") : "{ data, meta }";
  // The client takes its credential when it is made, whether or not this operation sends it.
  const names = [env.baseUrl, env.credential];
  return `${header(request, "//", names)}import { ${client.factory} } from "${client.module}";

${tsEnvironment(names)}const ${client.variable} = ${client.factory}(${client.options(env)});
const ${result} = await ${call};
${print}
`;
}

function pythonSample(request) {
  const { env } = request;
  const url = request.basePath
    ? `urljoin(os.environ[${json(env.baseUrl)}], ${json(request.path)})`
    : `os.environ[${json(env.baseUrl)}] + ${json(request.path)}`;
  const args = [url];
  const headers = request.headers.map(([name, value]) => `${json(name)}: ${json(value)}`);
  if (request.credentialHeader) {
    const value = request.credentialHeader.bearer ? `"Bearer " + os.environ[${json(request.credential)}]` : `os.environ[${json(request.credential)}]`;
    headers.unshift(`${json(request.credentialHeader.name)}: ${value}`);
  }
  if (headers.length) args.push(`headers={${headers.join(", ")}}`);
  if (request.query.length) args.push(`params=${pythonLiteral(Object.fromEntries(request.query))}`);
  if (request.body !== undefined) args.push(`${formBody(request) ? "data" : "json"}=${pythonLiteral(request.body)}`);
  if (redirects(request)) args.push("allow_redirects=False");
  if (request.timeoutMs) args.push(`timeout=${request.timeoutMs / 1000}`);
  const printsJson = !redirects(request) && request.successMedia?.includes("json");
  const answer = redirects(request) ? `response.headers.get("location")` : printsJson ? "json.dumps(response.json(), indent=2)" : "response.text";
  const imports = [...(printsJson ? ["import json"] : []), "import os", ...(request.basePath ? ["from urllib.parse import urljoin"] : []), "", "import requests"];
  return `${header(request, "#")}${imports.join("\n")}

response = requests.${request.method.toLowerCase()}(
    ${args.join(",\n    ")},
)
print(response.status_code, ${answer})
`;
}

/** A value as a one-line literal of TypeScript (`{ key: "value" }`) or Python (`{"key": "value"}`). */
function literal(value, language) {
  if (Array.isArray(value)) return `[${value.map((item) => literal(item, language)).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value).map(([key, item]) => {
      const name = language === "ts" && /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
      return `${name}: ${literal(item, language)}`;
    });
    if (!entries.length) return "{}";
    return language === "ts" ? `{ ${entries.join(", ")} }` : `{${entries.join(", ")}}`;
  }
  if (language === "python" && (value === true || value === false || value === null)) return { true: "True", false: "False", null: "None" }[String(value)];
  return JSON.stringify(value);
}
const ts = (value) => literal(value, "ts");
const pythonLiteral = (value) => literal(value, "python");

/**
 * Every operation's samples for one surface: `[{ request, samples: { curl, client, fetch, python } }]`.
 * `methodNames` are the methods of the surface's client class (a platform operation with a method of its name uses it).
 */
export function samplesFor(api, description, methodNames = new Set()) {
  return requests(api, description).map((request) => ({
    request,
    samples: {
      curl: curl(request),
      client: clientSample(request, methodNames),
      fetch: fetchSample(request),
      python: pythonSample(request),
    },
  }));
}
