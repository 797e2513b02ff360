// The try-it console of a reference page: its dialog, and the data it needs from the same request model as the
// samples (each operation's method, path, parameters and body from the examples) and the sandbox's address for the
// surface. It talks to the surfaces only, never to the sandbox's control API.
import { operationTable } from "@content-scraper/codegen";
import { referenceAnchor } from "./site.mjs";

/** The sandbox's default address (`pnpm mock` listens on 127.0.0.1:4010) under the surface's base path. */
const sandboxOrigin = "http://127.0.0.1:4010";

/**
 * A credential the sandbox takes, filled in for the reader: a key of the scheme's documented prefix (the sandbox
 * environment's, where the prefix selects one), or for a bearer token any token, which the sandbox takes as a grant with
 * every scope. Empty where the sandbox has no rule a name can follow.
 */
function sandboxCredential(table, bearer) {
  if (bearer) return "docs_try_it";
  const scheme = Object.values(table.apiKeys).find((candidate) => candidate.keyPrefix || candidate.keyEnvironments);
  const prefix = scheme?.keyPrefix ?? Object.entries(scheme?.keyEnvironments ?? {}).find(([, environment]) => environment === "sandbox")?.[0];
  return prefix ? `${prefix}docs_try_it` : "";
}

/** The console's data for one surface: `{ api, baseUrl, credential, bearer, operations }`. */
export function tryItData({ api, description }, samples) {
  const table = operationTable(description);
  const serverPath = new URL(description.servers[0].url.replace(/\{[^}]*\}/g, "host")).pathname.replace(/\/$/, "");
  const summaries = new Map(
    Object.values(description.paths ?? {}).flatMap((item) => Object.values(item).filter((operation) => operation?.operationId).map((operation) => [operation.operationId, operation])),
  );
  const bearer = samples.some(({ request }) => request.credentialHeader?.bearer);
  return {
    api,
    baseUrl: `${sandboxOrigin}${serverPath}`,
    credential: sandboxCredential(table, bearer),
    bearer,
    operations: samples.map(({ request }) => {
      const operation = summaries.get(request.operationId);
      return {
        operationId: request.operationId,
        summary: operation.summary ?? request.operationId,
        route: referenceAnchor(operation.tags?.[0] ?? "", request.operationId),
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

/** The console's button, dialog and data, at the end of a reference page's body. Nothing where there is no operation. */
export function tryItDialog(data) {
  if (!data.operations.length) return "";
  const hint = data.bearer
    ? `<p class="try-it-hint" id="try-it-credential-hint">The sandbox takes any bearer token as a grant with every scope, so the one filled in works; its magic tokens (<code>sandbox_expired</code>, …) answer errors. A token from the flow of the <a href="../guides/oauth.html">OAuth guide</a> works too. Never paste a real token here.</p>`
    : `<p class="try-it-hint" id="try-it-credential-hint">The key filled in is a sandbox key: the sandbox keeps an account per key. Never paste a real key here.</p>`;
  return `<button class="try-button" type="button" aria-haspopup="dialog">Try it</button>
<dialog id="try-it" class="try-it" aria-labelledby="try-it-title">
  <form method="dialog">
    <h2 id="try-it-title">Try it against your sandbox</h2>
    <p>Start the sandbox with <code>pnpm mock</code> and send any operation to it, filled in from the examples. The console sends only to this machine.</p>
    <label>Operation <select name="operation"></select></label>
    <label>Base URL <input name="baseUrl" type="url" spellcheck="false"></label>
    <label class="try-it-credential"><span class="try-it-credential-name"></span> <input name="credential" spellcheck="false" autocomplete="off" aria-describedby="try-it-credential-hint"></label>
    ${hint}
    <div class="try-it-params"></div>
    <label>Body <textarea name="body" rows="8" spellcheck="false"></textarea></label>
    <div class="try-it-actions"><button type="submit" value="send">Send</button><button type="submit" value="close">Close</button></div>
    <pre class="try-it-response" aria-live="polite" tabindex="0"></pre>
  </form>
</dialog>
<script type="application/json" id="try-it-data">${JSON.stringify(data).replace(/</g, "\\u003c")}</script>`;
}
