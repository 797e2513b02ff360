// What the try-it console of a reference page needs, from the same request model as the samples: each operation's
// method, path, parameters and body from the examples, and the sandbox's address for the surface.
import { operationTable } from "@content-scraper/codegen";
import { redocRoute } from "./site.mjs";

/** The sandbox's default address (`pnpm mock` listens on 127.0.0.1:4010) under the surface's base path. */
const sandboxOrigin = "http://127.0.0.1:4010";

/** The console's data for one surface: `{ api, baseUrl, credential, operations }`. */
export function tryItData({ api, description }, samples) {
  const table = operationTable(description);
  const serverPath = new URL(description.servers[0].url.replace(/\{[^}]*\}/g, "host")).pathname.replace(/\/$/, "");
  // A key of the documented prefix is an account of its own in the sandbox; tokens and other keys the reader types.
  const prefix = Object.values(table.apiKeys).find((scheme) => scheme.keyPrefix)?.keyPrefix;
  const summaries = new Map(
    Object.values(description.paths ?? {}).flatMap((item) => Object.values(item).filter((operation) => operation?.operationId).map((operation) => [operation.operationId, operation])),
  );
  return {
    api,
    baseUrl: `${sandboxOrigin}${serverPath}`,
    credential: prefix ? `${prefix}docs_try_it` : "",
    operations: samples.map(({ request }) => {
      const operation = summaries.get(request.operationId);
      return {
        operationId: request.operationId,
        summary: operation.summary ?? request.operationId,
        route: redocRoute(operation.tags?.[0] ?? "", request.operationId),
        method: request.method,
        path: request.template,
        rootPath: Boolean(request.basePath),
        pathParams: request.pathParams,
        query: request.query,
        headers: request.headers,
        mediaType: request.mediaType,
        body: request.body,
        credentialHeader: request.credentialHeader,
      };
    }),
  };
}
