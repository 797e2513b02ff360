// Every error body of the key-based API, and its page convention (no operation the reference shows uses it), read as
// the description types them, through openapi-fetch.
import createClient from "openapi-fetch";
import type { components, paths } from "../../generated/openapi-typescript/platform-legacy/index.ts";

const legacy = createClient<paths>({ baseUrl: "https://platform.example.test/api/v1", headers: { "x-api-key": "company_key" } });
type Schemas = components["schemas"];

/** `{ error: <message> }`, sometimes with a `code`. */
const failure = (body: Schemas["LegacyError"] | undefined): string | undefined => body && `${body.error} ${body.code ?? ""}`;

/** A page of a legacy list: `data`, `page`, `total`, and on some lists `limit` or `totalPages`. */
export function pageOf(page: Schemas["PageList"]): [unknown[], number, number, number | undefined, number | undefined] {
  return [page.data, page.page, page.total, page.limit, page.totalPages];
}

export async function reads(): Promise<unknown[]> {
  const history = await legacy.GET("/posts/{id}/metrics-history", { params: { path: { id: "post_1" }, query: { limit: 100 } } });
  return [failure(history.error), history.data];
}
