export { type BodyTooLarge, defaultMaxResponseBytes, describeTooLarge } from "./body.js";
export { deadline, type Deadline } from "./deadline.js";
export { onAbort } from "./abort.js";
export { checkBaseUrl, checkNumber, env, type InputErrorFactory, isLoopback } from "./environment.js";
export { checkBackendOnly, isBrowser } from "./runtimes.js";
export { ContentScraperError, type ContentScraperErrorOptions } from "./errors.js";
export { isCount, readAmount, readCount, StoreReplyError } from "./figures.js";
export { Redactor, redacted } from "./redact.js";
export { countHeader, type RateLimitHeaders, rateLimitHeaders, retryAfterMs } from "./headers.js";
export { bodyExcerpt, buildUrl, isObject, optionalString, outgoingFrom, parseJson, type Query, responseFrom, successJson } from "./http.js";
export { checkApiKey, checkCredential, type KeyRules } from "./keys.js";
export { type Logger, silentLogger } from "./logger.js";
export { describeRefusal, maxRedirects, type RedirectRefusal } from "./redirect.js";
export {
  defaultMaxRetryWaitMs,
  defaultTransportTimeoutMs,
  jsonOutgoing,
  resolveLimits,
  resolveTransport,
  type Transport,
  type TransportOptions,
  transportSendConfig,
} from "./transport.js";
export {
  type Answer,
  type AttemptEvent,
  type Outgoing,
  type RequestEvent,
  type ResponseEvent,
  type RetryEvent,
  type RetryDecision,
  retryOn429,
  type SendConfig,
  type SendErrors,
  type SendHooks,
  type SendOptions,
  send,
} from "./send.js";
export { describeConnectionFailure, neverSent } from "./fetch-failure.js";
export { abortReason, sleep } from "./sleep.js";
export { maxTimerMs, setTimer } from "./timers.js";
export type { AccountRate, BucketLimit, BudgetState, BudgetWait, CreditBudgetStore, CreditReservation, RateLimitStore } from "./stores.js";
export { holdMs, keepTakesMs, memoryBudgetStore, memoryRateLimitStore, wayThereMs } from "./memory-stores.js";
export { Pacer, PacingTimeout } from "./pacer.js";
