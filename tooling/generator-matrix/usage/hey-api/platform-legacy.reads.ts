// Every error body of the key-based API, and its page convention (no operation the reference shows uses it), read as
// the description types them, through hey-api's SDK.
import { getPostMetricsHistory, type LegacyError, type PageList } from "../../generated/hey-api/platform-legacy/index.ts";

/** `{ error: <message> }`, sometimes with a `code`. */
const failure = (body: LegacyError | undefined): string | undefined => body && `${body.error} ${body.code ?? ""}`;

/** A page of a legacy list: `data`, `page`, `total`, and on some lists `limit` or `totalPages`. */
export function pageOf(page: PageList): [unknown[], number, number, number | undefined, number | undefined] {
  return [page.data, page.page, page.total, page.limit, page.totalPages];
}

export async function reads(): Promise<unknown[]> {
  const history = await getPostMetricsHistory({ path: { id: "post_1" }, query: { limit: 100 } });
  return [failure(history.error), history.data];
}
