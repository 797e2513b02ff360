import type { components, operations } from "./generated/platform.types.js";
import type { RequestOptions } from "./transport.js";

// Public types, derived from the generated description types. Bodies whose fields the reference does not show are the
// open generated objects (`Record<string, unknown>`).

export type Operations = operations;
export type OperationName = keyof operations;

type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;

/** The JSON body of an operation's 2xx answer. */
export type SuccessBody<Id extends OperationName> = operations[Id]["responses"] extends { "2XX": infer Success } ? JsonOf<Success> : never;
/** The JSON request body of an operation. */
export type RequestBody<Id extends OperationName> = JsonOf<NonNullable<operations[Id]["requestBody"]>>;

export type WebhookDelivery = components["schemas"]["WebhookDelivery"];
/** One page of a webhook's deliveries (`WebhookDeliveryPage`): when `hasMore` is false, `nextCursor` is null. */
export interface WebhookDeliveryPage {
  data: WebhookDelivery[];
  nextCursor: string | null;
  hasMore: boolean;
}
export type PostMetricsHistory = components["schemas"]["PostMetricsHistory"];
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
  /** The span of history. Its type, default and range are not shown in the reference. */
  days?: operations["getPostMetricsHistory"]["parameters"]["query"] extends infer Q ? (Q extends { days?: infer D } ? D : never) : never;
  /** How many entries, at most 500. */
  limit?: number | undefined;
}
