import { type BodyTooLarge, readBody } from "./body.js";
import { type Deadline, deadline } from "./deadline.js";
import { neverSent } from "./fetch-failure.js";
import { retryAfterMs } from "./headers.js";
import type { Logger } from "./logger.js";
import { PacingTimeout } from "./pacer.js";
import type { Redactor } from "./redact.js";
import { type Hop, isRefusal, nextHop, type RedirectRefusal } from "./redirect.js";
import { sleep } from "./sleep.js";
import { type WireAccess, wireAccess } from "./runtimes.js";

/** What to send: the parts of a request, so that every attempt sends the same bytes without re-reading a stream. */
export interface Outgoing {
  url: string;
  method: string;
  headers?: Headers | Record<string, string> | undefined;
  body?: string | ArrayBuffer | undefined;
  /**
   * A redirect is the answer, returned as it came and never followed: the caller asked for it (`redirect: "manual"`
   * through `api`), e.g. for the 302 that `/authorize` documents.
   */
  keepRedirect?: boolean | undefined;
}

/** A complete answer: the response and its whole body, read within the timeout and `maxResponseBytes`. */
export interface Answer {
  response: Response;
  text: string;
  /** How many requests were sent for this call (1 when the first answer was kept; followed redirects not counted). */
  attempts: number;
  /** From the call's start to the last byte of this answer, pacing and retry waits included. */
  elapsedMs: number;
}

/** What every hook event says of the attempt it concerns. */
export interface AttemptEvent {
  /** The call's name (an operationId, or `METHOD /path`). */
  name: string;
  /** 1 for the first request of the call, 2 for its first retry, … */
  attempt: number;
  method: string;
  url: string;
  /** The call's log details (e.g. its operationId and platform); never a credential. */
  details: Readonly<Record<string, unknown>> | undefined;
}

/** An attempt is about to be sent. `headers` are the request's own, without the credential. */
export interface RequestEvent extends AttemptEvent {
  headers: Readonly<Record<string, string>>;
  /** How long this attempt waited for the client's pacing before it could be sent. */
  pacingWaitMs: number;
}

/** An attempt was answered and its body read; `final` when no retry follows. */
export interface ResponseEvent extends AttemptEvent {
  status: number;
  headers: Headers;
  /** From sending this attempt to the last byte of its body. */
  durationMs: number;
  final: boolean;
}

/** A retry was decided: the next attempt goes out after `delayMs`. */
export interface RetryEvent extends AttemptEvent {
  status: number;
  delayMs: number;
  /** Why, as the client's retry rule says it (e.g. the error code). */
  reason: string | undefined;
}

/** Hooks that see every attempt of every call of a client. A hook that throws fails the call with its error. */
export interface SendHooks {
  onRequest?: ((event: RequestEvent) => void) | undefined;
  onResponse?: ((event: ResponseEvent) => void) | undefined;
  onRetry?: ((event: RetryEvent) => void) | undefined;
}

/** Retry this answer after `delayMs`; `summary` and `details` go into the warning that is logged. */
export interface RetryDecision {
  delayMs: number;
  summary?: string | undefined;
  details?: Record<string, unknown> | undefined;
}

/** One call of a client: what it is called, its limits, and what its errors carry. */
export interface SendOptions {
  /** What the call is called in logs and errors (an operationId, or `METHOD /path`). */
  name: string;
  /**
   * Covers each attempt from its wait for pacing to the last byte of the body, redirects included: no attempt outlives
   * it, in the pacer or on the wire. `undefined` for none.
   */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Added to every log line's details (never a credential). */
  logDetails?: Record<string, unknown> | undefined;
  /** The call's `Idempotency-Key`, for the errors that should carry it. */
  idempotencyKey?: string | undefined;
  /** The credential's headers, or a function computing them for every attempt (a fresh access token). Never logged nor shown to hooks. */
  authHeaders?: Readonly<Record<string, string>> | (() => Record<string, string> | Promise<Record<string, string>>) | undefined;
  /** Overrides `SendConfig.maxRetries` for this call. */
  maxRetries?: number | undefined;
}

/** The errors of a client family, one object per family; each factory receives the call it concerns (`Call`: the client's own kind of call). */
export interface SendErrors<Call extends SendOptions = SendOptions> {
  /**
   * The timeout ran out: while waiting for pacing (`inFlight` false: nothing was sent), or for the headers or the body
   * (`inFlight`: the service may have acted). Not retried.
   */
  timeout(call: Call, timeoutMs: number, inFlight: boolean): Error;
  /**
   * The connection failed or the body was cut off. Not retried. `inFlight` false: the failure proves the request never
   * left this machine (a refused connection, a name that did not resolve), so nothing can have been billed.
   */
  connection(call: Call, cause: unknown, inFlight: boolean): Error;
  /** A redirect was refused: to another origin, one too many, or with a target that cannot be read. */
  redirect(call: Call, refusal: RedirectRefusal): Error;
  /** The body passed `maxResponseBytes`; `response` is the answer whose body was abandoned. */
  tooLarge(call: Call, tooLarge: BodyTooLarge, response: Response): Error;
  /**
   * The caller's signal aborted: `inFlight` while a request was out (it may have been acted on), otherwise while
   * pacing or waiting to retry. `reason` is the signal's, kept as the error's `cause`.
   */
  aborted(call: Call, reason: unknown, inFlight: boolean): Error;
}

/**
 * How a client sends: one per client, the parts of the loop that differ between surfaces. `Call` is the client's kind
 * of call: `send` hands the call object it was given to `beforeAttempt`, `retryDelay` and `errors`, so a client can
 * carry what it knows of the call (its operation's rules, say) to them without looking it up again.
 */
export interface SendConfig<Call extends SendOptions = SendOptions> {
  fetch: typeof fetch;
  logger: Logger;
  /** The prefix of log lines (`scraper`, `platform`, …). */
  label: string;
  /** Retries after the first attempt, at most. */
  maxRetries: number;
  /** The longest wait before a retry. An answer that asks for a longer one is returned at once instead of slept on. */
  maxRetryWaitMs: number;
  /** The largest body read, counted as `readBody` says; a larger one throws `errors.tooLarge`. */
  maxResponseBytes: number;
  /**
   * Runs before every attempt, e.g. to wait for a token of a client-side rate limiter; may resolve to the milliseconds
   * it waited. `until` is the attempt's deadline (a `performance.now()` time): a wait that would pass it rejects with
   * `PacingTimeout`, which fails the call with `errors.timeout` (not in flight).
   */
  beforeAttempt?: ((signal: AbortSignal | undefined, call: Call, until: number | undefined) => Promise<number | undefined> | number | undefined) | undefined;
  /**
   * Sees every final response (not the redirects followed), e.g. to align a rate limiter with the service's count;
   * `ageMs` is how long ago its request was handed to fetch, so how old the figures it carries are at most.
   */
  afterResponse?: ((response: Response, ageMs: number) => void) | undefined;
  /** For a non-2xx answer with retries left: how long to wait before sending again, or `undefined` to return it. */
  retryDelay(answer: Answer, attempt: number, call: Call): RetryDecision | undefined;
  /** Runs once a retry is decided and its wait is within `maxRetryWaitMs`, before the wait (e.g. to pause pacing). */
  beforeRetry?: ((answer: Answer, decision: RetryDecision) => void) | undefined;
  hooks?: SendHooks | undefined;
  /** Waits before a retry; the runtime's `sleep` (real time) by default. A test can pass one that moves a sandbox's clock instead. */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  errors: SendErrors<Call>;
  /** Removes the client's credentials from what leaves `send`: its errors and the headers its hooks see. */
  redactor?: Redactor | undefined;
}

/** An error of the client's family that must not be turned into a connection error on its way out. */
class Refused {
  constructor(readonly error: Error) {}
}

/**
 * Sends a request and retries it as `retryDelay` says, sending the same method, URL, headers and body each time.
 * Each attempt follows same-origin redirects only (`nextHop`; none with `keepRedirect`) and reads the whole body within the timeout and
 * `maxResponseBytes`. A retry whose wait is beyond `maxRetryWaitMs` is not slept: the answer is returned, final.
 * Timeouts and broken connections are not retried: the service may have acted on the request. The caller's abort
 * rejects with `errors.aborted`, also while pacing or waiting to retry. `config.hooks` see
 * every attempt.
 */
export function send<Call extends SendOptions>(config: SendConfig<Call>, outgoing: Outgoing, call: Call): Promise<Answer> {
  const { redactor } = config;
  const answer = attempts(config, outgoing, call);
  return redactor
    ? answer.catch((error: unknown) => {
        throw redactor.error(error);
      })
    : answer;
}

async function attempts<Call extends SendOptions>(config: SendConfig<Call>, outgoing: Outgoing, call: Call): Promise<Answer> {
  const { name, timeoutMs, signal: userSignal } = call;
  const { hooks } = config;
  const maxRetries = call.maxRetries ?? config.maxRetries;
  const started = performance.now();
  // A plain object: cheaper for fetch than a Headers instance on the hot path.
  const given = outgoing.headers instanceof Headers ? Object.fromEntries(outgoing.headers) : (outgoing.headers ?? {});
  const aborted = (inFlight: boolean) => config.errors.aborted(call, userSignal?.reason, inFlight);

  for (let attempt = 0; ; attempt++) {
    // Built only for hooks: the hot path without them allocates nothing per attempt.
    const event = hooks && { name, attempt: attempt + 1, method: outgoing.method, url: outgoing.url, details: call.logDetails };
    let pacingWaitMs = 0;
    if (userSignal?.aborted) throw aborted(false);
    const until = timeoutMs === undefined ? undefined : performance.now() + timeoutMs;
    try {
      const waited = config.beforeAttempt?.(userSignal, call, until);
      // Awaited only when it is a wait: an await costs the hot path a turn of the microtask queue.
      pacingWaitMs = (waited instanceof Promise ? await waited : waited) ?? 0;
    } catch (error) {
      if (userSignal?.aborted) throw aborted(false);
      throw error instanceof PacingTimeout ? config.errors.timeout(call, timeoutMs as number, false) : error;
    }
    config.logger.debug?.(`${config.label}: ${name} attempt ${attempt + 1}`, { ...call.logDetails, attempt: attempt + 1 });
    if (event) hooks?.onRequest?.({ ...event, headers: given, pacingWaitMs });
    const headers = call.authHeaders ? withCredential(given, typeof call.authHeaders === "function" ? await call.authHeaders() : call.authHeaders) : given;
    const sentAt = performance.now();
    const access = wireAccess(config.fetch);
    // What the pacing wait left of the attempt's time.
    const timer = deadline(until === undefined ? undefined : Math.max(0, until - performance.now()), userSignal);
    let response: Response;
    let text: string;
    // Answers this attempt had: a failure after one (on a redirect followed) came after a request was sent.
    let answers = 0;
    try {
      const hop = { url: outgoing.url, method: outgoing.method, headers, body: outgoing.body };
      const way = { access, deadline: timer };
      response = await fetchHop(config, hop, way);
      answers++;
      if (!isFinal(response) && !(outgoing.keepRedirect && !response.redirected)) response = await follow(config, response, hop, way, call);
      const body = await readBody(response, config.maxResponseBytes, timer, access.kind === "raw");
      if (typeof body !== "string") throw new Refused(config.errors.tooLarge(call, body, response));
      text = body;
    } catch (error) {
      if (error instanceof Refused) throw error.error;
      if (userSignal?.aborted) throw aborted(true);
      if (timer.timedOut()) throw config.errors.timeout(call, timeoutMs as number, true);
      throw config.errors.connection(call, error, !(answers === 0 && neverSent(error)));
    } finally {
      timer.clear();
    }
    const answeredAt = performance.now();
    config.afterResponse?.(response, answeredAt - sentAt);
    const answer = { response, text, attempts: attempt + 1, elapsedMs: answeredAt - started };
    const decision = response.ok || attempt >= maxRetries ? undefined : config.retryDelay(answer, attempt, call);
    const retrying = decision !== undefined && decision.delayMs <= config.maxRetryWaitMs;
    if (event) {
      const headers = config.redactor ? config.redactor.headers(response.headers) : response.headers;
      hooks?.onResponse?.({ ...event, status: response.status, headers, durationMs: answeredAt - sentAt, final: !retrying });
    }
    if (!decision) return answer;
    const details = { ...call.logDetails, status: response.status, ...decision.details, delayMs: decision.delayMs };
    const answered = `${config.label}: ${name} answered ${response.status}${decision.summary ? ` ${decision.summary}` : ""}`;
    if (!retrying) {
      config.logger.warn?.(`${answered}; its wait of ${Math.round(decision.delayMs)} ms is beyond maxRetryWaitMs (${config.maxRetryWaitMs} ms): not retried`, details);
      return answer;
    }
    config.beforeRetry?.(answer, decision);
    config.logger.warn?.(`${answered}; retry ${attempt + 1} of ${maxRetries} in ${Math.round(decision.delayMs)} ms`, details);
    if (event) hooks?.onRetry?.({ ...event, status: response.status, delayMs: decision.delayMs, reason: decision.summary });
    try {
      await (config.sleep ?? sleep)(decision.delayMs, userSignal);
    } catch (error) {
      throw userSignal?.aborted ? aborted(false) : error;
    }
  }
}

/** The request's headers with the client's credential, and no other value under its name in any case: never two keys. */
function withCredential(given: Record<string, string>, auth: Record<string, string>): Record<string, string> {
  const names = Object.keys(auth).map((name) => name.toLowerCase());
  const headers: Record<string, string> = {};
  for (const name in given) if (!names.includes(name.toLowerCase())) headers[name] = given[name] as string;
  return Object.assign(headers, auth);
}

/** How an attempt's requests go: the runtime's access to the wire, and the attempt's deadline. */
interface Way {
  access: WireAccess;
  deadline: Deadline;
}

/**
 * One request of an attempt: fetch never follows a redirect itself, `follow` decides. On Deno, Bun and workerd the
 * request asks for the body undecoded (`readBody` counts and decodes it), unless the caller chose an
 * `Accept-Encoding` of its own. The deadline's signal goes to fetch, and its race bounds the wait for the headers
 * even for a fetch that ignores the signal (an answer that comes later is discarded, its body cancelled).
 */
function fetchHop<Call extends SendOptions>(config: SendConfig<Call>, hop: Hop, { access, deadline }: Way): Promise<Response> {
  let init: RequestInit = { method: hop.method, headers: hop.headers, body: hop.body, signal: deadline.signal, redirect: "manual" };
  if (access.kind === "raw" && !Object.keys(hop.headers).some((name) => name.toLowerCase() === "accept-encoding")) {
    init = { ...init, ...access.init, headers: { ...hop.headers, ...access.headers } };
  }
  return deadline.race(callFetch(config.fetch, hop.url, init), discardBody);
}

const discardBody = (response: Response) => response.body?.cancel().catch(() => undefined);

/**
 * `fetchImpl` called as a method of the global scope: a browser's and workerd's fetch refuse any other `this`
 * ("Illegal invocation"), and a client keeps the global fetch unbound, to know it for what it is (`wireAccess`).
 */
export const callFetch = (fetchImpl: typeof fetch, url: string, init: RequestInit): Promise<Response> => Reflect.apply(fetchImpl, globalThis, [url, init]);

/** The hot path: an answer that is not a redirect, from the fetch we asked for (not followed by a custom fetch). */
const isFinal = (response: Response) => !response.redirected && response.status !== 0 && (response.status < 300 || response.status >= 400);

/** Applies the redirect policy of `nextHop` to `response` and to every answer after it, until one is final. */
async function follow<Call extends SendOptions>(
  config: SendConfig<Call>,
  response: Response,
  first: Hop,
  way: Way,
  call: Call,
): Promise<Response> {
  const origin = new URL(first.url).origin;
  let hop = first;
  for (let followed = 0; ; followed++) {
    const landed = response.redirected ? new URL(response.url).origin : origin;
    const next =
      landed === origin ? nextHop(response, hop, origin, followed) : { status: 0, fromOrigin: origin, toOrigin: landed, reason: "cross-origin" as const };
    if (next === undefined) return response;
    await response.body?.cancel().catch(() => undefined);
    if (isRefusal(next)) throw new Refused(config.errors.redirect(call, next));
    config.logger.debug?.(`${config.label}: ${call.name} followed a ${response.status} redirect on ${origin}`, call.logDetails);
    hop = next;
    response = await fetchHop(config, hop, way);
    if (isFinal(response)) return response;
  }
}

/**
 * The retry rule of the surfaces that document only this one: a 429 is sent again after exactly its `Retry-After`;
 * a 429 without a readable `Retry-After`, and every other answer, is returned as it is.
 */
export function retryOn429({ response }: Answer): RetryDecision | undefined {
  if (response.status !== 429) return undefined;
  const delayMs = retryAfterMs(response.headers);
  return delayMs === undefined ? undefined : { delayMs };
}
