import type { components, operations } from "./generated/platform.types.js";
import type { RequestOptions } from "./transport.js";

// Public types, derived from the generated description types. Bodies whose fields the reference does not show are the
// open generated objects (`Record<string, unknown>`).

/** The OAuth platform API's operations, as openapi-typescript generates them from the description. */
export type Operations = operations;
/** The operationId of an OAuth platform API operation. */
export type OperationName = keyof operations;

type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON body of an operation's 2xx answer. */
export type SuccessBody<Id extends OperationName> = operations[Id]["responses"] extends { "2XX": infer Success } ? JsonOf<Success> : never;
/** The JSON request body of an operation. */
export type RequestBody<Id extends OperationName> = JsonOf<NonNullable<operations[Id]["requestBody"]>>;

/** One delivery of a webhook: an object whose fields v1.3.0 does not list. */
export type WebhookDelivery = components["schemas"]["WebhookDelivery"];
/** One page of a webhook's deliveries (`WebhookDeliveryPage`): when `hasMore` is false, `nextCursor` is null. */
export interface WebhookDeliveryPage {
  data: WebhookDelivery[];
  nextCursor: string | null;
  hasMore: boolean;
}
/** A post's metrics history: an object whose fields v1.3.0 does not list. */
export type PostMetricsHistory = components["schemas"]["PostMetricsHistory"];
/** The body of every resource error: `{ error: { code, message, requestId, meta? } }`. */
export type ErrorEnvelope = components["schemas"]["ErrorEnvelope"];

/** Options of a write (`POST`, `PATCH`, `PUT`). */
export interface WriteOptions extends RequestOptions {
  /**
   * The `Idempotency-Key`. Without one, a new UUID is sent; either way the same key goes with every retry of the call
   * and is in `meta.idempotencyKey` and on errors. Pass your own to make a retry after a crash or timeout safe. Its
   * length is checked against the description's limits (8 to 200 characters on the campaign analytics history).
   */
  idempotencyKey?: string | undefined;
}

export interface ListOptions extends RequestOptions {
  /** The previous page's `nextCursor`, verbatim. */
  cursor?: string | undefined;
  /** Items per page: default 25, at most 100. */
  limit?: number | undefined;
}

export interface MetricsHistoryOptions extends RequestOptions {
  /** The span of history. Its type, default and range are not documented in v1.3.0. */
  days?: operations["getPostMetricsHistory"]["parameters"]["query"] extends infer Q ? (Q extends { days?: infer D } ? D : never) : never;
  /** How many entries, at most 500. */
  limit?: number | undefined;
}
