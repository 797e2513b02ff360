// Every error body of the key-based API, and its page convention (no operation the reference shows uses it), read as
// the description types them, through orval's client (with `includeHttpResponseReturnType: false`: spec/README.md).
import type {
  BadRequestResponse,
  ForbiddenResponse,
  NotFoundResponse,
  PageList,
  RateLimitedResponse,
  SubscriptionRequiredResponse,
  UnauthorizedResponse,
} from "../../generated/orval/platform-legacy/index.ts";

/** Every error body the description documents: `{ error: <message> }`, sometimes with a `code`. */
export const failures = (
  bodies: [BadRequestResponse, UnauthorizedResponse, SubscriptionRequiredResponse, ForbiddenResponse, NotFoundResponse, RateLimitedResponse],
) => bodies.map((body): string => `${body.error} ${body.code ?? ""}`);

/** A page of a legacy list: `data`, `page`, `total`, and on some lists `limit` or `totalPages`. */
export function pageOf(page: PageList): [unknown[], number, number, number | undefined, number | undefined] {
  return [page.data, page.page, page.total, page.limit, page.totalPages];
}
