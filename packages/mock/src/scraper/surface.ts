import { validateRequest } from "@content-scraper/validators/scraper";
import { type BodyProblem, type BodyRules, declaredFields, readBody } from "../body.js";
import { type AnswerRecord, answerAll, json, type SandboxServices, type Surface, type SurfaceRequest, type SurfaceResponse, text } from "../http.js";
import { requestId } from "../request-id.js";
import { type Account, Accounts, accountsFull } from "./accounts.js";
import { type Documented, documentedError, documentedPlainText, listingExamples, requestSchema } from "./documented.js";
import { type Choice, createEngine, type PrismOperation } from "./engine.js";
import { checkKey } from "./keys.js";
import { busyRetryAfterSeconds, magicOf } from "./magic.js";
import { shapeData } from "./payloads.js";
import { parsePrefer } from "./prefer.js";
import {
  billingOf,
  chargeOf,
  defaultRateLimit,
  type ErrorCode,
  maxBodyBytes,
  type OperationRules,
  operationAt,
  platforms,
  scraperKey,
  statusOf,
  typicalDurationMs,
} from "./rules.js";
import type { BucketState } from "./token-bucket.js";

export interface ScraperOptions {
  /** The bundled description (`spec/dist/scraper.json`). */
  description: string;
  seed: string;
  dynamic: boolean;
  /** Starting balance of every account. */
  credits: number;
  /** The accounts' rate limit; by default the description's (`x-rate-limit`). */
  requestsPerMinute: number | undefined;
  /** Multiplies the simulated durations (the `slow` input): 0 answers at once. */
  timeScale: number;
  sandbox: SandboxServices;
}

type Json = Record<string, unknown>;

/** An operation with what the sandbox reads from its description once, at start. */
interface Operation {
  rules: OperationRules;
  prism: PrismOperation;
  /** How its body is read: JSON, checked with the precompiled validators against its request schema. */
  body: BodyRules;
  /** The fields that carry a magic input (its identifiers), or `undefined` where the request's fields are not shown. */
  identifiers: string[] | undefined;
}

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

function creditHeaders(charged: number): Record<string, string> {
  return { "X-Scraper-Credits-Charged": String(charged) };
}

function rateHeaders(state: BucketState): Record<string, string> {
  return {
    "X-Scraper-RateLimit-Limit": String(state.limit),
    "X-Scraper-RateLimit-Remaining": String(state.remaining),
    "X-Scraper-RateLimit-Reset": String(state.reset),
  };
}

/** An error the sandbox raises itself, in the service's envelope: free, so it costs 0. */
function failure(code: ErrorCode, message: string, id: string, extra: Json = {}, headers: Record<string, string> = {}): SurfaceResponse {
  return json(statusOf(code), { error: code, message, request_id: id, ...extra }, { ...creditHeaders(0), ...headers });
}

const invalid = (problem: BodyProblem, id: string) => failure("INVALID_INPUT", problem.message, id, { field: problem.field, reason: problem.reason });

export async function createScraperSurface(options: ScraperOptions): Promise<Surface> {
  const engine = await createEngine(options.description);
  const { clock, faults } = options.sandbox;
  const accounts = new Accounts({
    credits: options.credits,
    requestsPerMinute: options.requestsPerMinute ?? defaultRateLimit.requestsPerMinute,
    burstSeconds: defaultRateLimit.burstSeconds,
    clock,
  });
  // When catalogs were as they start: they grow from here as sandbox time passes (a reset of everything starts over).
  let catalogsSince = clock.now();
  const operations = new Map<string, Operation>();
  for (const [id, prism] of engine.operations) {
    const rules = operationAt(prism.path);
    if (!rules) continue;
    const schema = requestSchema(prism);
    const identifiers = declaredFields(schema)?.filter((field) => field !== rules.paging?.request);
    const body = { validate: validateRequest, operationId: rules.operationId, mediaType: "application/json", schema };
    operations.set(rules.path, { rules, prism, body, identifiers });
    if (rules.operationId !== id) throw new Error(`operation table and description disagree on ${rules.path}`);
  }
  const listings = new Map([...operations.values()].map(({ rules, prism }) => [rules.operationId, listingExamples(prism)]));

  function unknownPath(path: string, id: string): SurfaceResponse {
    const [, platform, name] = /^\/scrape\/([^/]+)\/([^/]+)$/.exec(path) ?? [];
    if (platform && platforms.has(platform)) {
      return failure("ENDPOINT_NOT_FOUND", `${platform} has no operation "${name}".`, id, { platform });
    }
    // Outside the documented platform namespaces: the framework's standard 404, as the reference allows.
    return text(404, "Not Found");
  }

  function rateLimited(account: Account, id: string): SurfaceResponse {
    const state = account.bucket.state();
    return failure("SCRAPER_RATE_LIMITED", `Rate limit exceeded. Retry after ${state.retryAfter} seconds.`, id, {}, {
      "Retry-After": String(state.retryAfter),
      ...rateHeaders(state),
    });
  }

  /** Prism's answer, with the service's request id, credits and rate-limit state. */
  function finish(operation: Operation, account: Account, answer: { status: number; contentType: string; body: unknown }, context: Finish): SurfaceResponse {
    const { rules } = operation;
    const code = isObject(answer.body) && typeof answer.body.error === "string" ? answer.body.error : undefined;
    const charged = chargeOf(rules, billingOf(rules, answer.status, code));
    accounts.settle(account, context.reserved, charged);
    if (!isObject(answer.body)) {
      // The gateway's bare text/plain 504: no JSON, and no billing header ("may not", says the description).
      return { status: answer.status, headers: { "Content-Type": answer.contentType }, body: String(answer.body ?? "") };
    }
    if (answer.status >= 200 && answer.status < 300) {
      const data = shapeData(isObject(answer.body.data) ? answer.body.data : {}, {
        rules,
        body: isObject(context.body) ? context.body : {},
        seed: options.seed,
        magic: context.magic,
        examples: listings.get(rules.operationId),
        since: catalogsSince,
        now: clock.now(),
      });
      const body = { ...answer.body, data, request_id: context.id, meta: { credits_charged: charged, credits_remaining: account.balance } };
      const balance = { "X-Scraper-Credits-Remaining": String(account.balance) };
      return json(answer.status, body, { "Content-Type": answer.contentType, ...creditHeaders(charged), ...balance, ...rateHeaders(account.bucket.state()) });
    }
    const headers: Record<string, string> = { "Content-Type": answer.contentType, ...creditHeaders(charged) };
    const body: Json = { ...answer.body, request_id: context.id };
    if ("platform" in body && rules.platform) body.platform = rules.platform;
    if ("identifier" in body && context.magic) body.identifier = context.magic;
    if (code === "SCRAPER_SYSTEM_BUSY") {
      // Refused for the whole service: the reference says it does not consume the caller's rate limit.
      account.bucket.giveBack();
      headers["Retry-After"] = String(busyRetryAfterSeconds);
    }
    if (answer.status === 429) {
      const state = account.bucket.state();
      Object.assign(headers, { "Retry-After": String(state.retryAfter) }, rateHeaders(state));
    }
    return json(answer.status, body, headers);
  }

  type Finish = { id: string; body: unknown; reserved: number; magic: string | undefined };

  async function answer(request: SurfaceRequest, id: string, record: AnswerRecord): Promise<SurfaceResponse> {
    const operation = operations.get(request.path);
    if (!operation) return unknownPath(request.path, id);
    const { rules, prism } = operation;
    record.operation = rules.operationId;
    if (request.method !== rules.method) {
      // No operation answers this method here: an unknown endpoint to the service, with the method that would work.
      const message = `${request.method} ${request.path} is not an operation: scraper operations are ${rules.method}.`;
      return failure("ENDPOINT_NOT_FOUND", message, id, { platform: rules.platform }, { Allow: rules.method });
    }

    const key = checkKey(request.headers[scraperKey.name]);
    if (!key.ok) return failure("UNAUTHORIZED", key.message, id);
    const account = accounts.get(key.key);
    // The sandbox's own limit, as the refusal of a key: free, and said to be the sandbox's.
    if (!account) return failure("UNAUTHORIZED", accountsFull, id);
    if (!account.bucket.take()) return rateLimited(account, id);

    const parsed = readBody(request.body, operation.body);
    if (!parsed.ok) return invalid(parsed.problem, id);
    const prefer = parsePrefer(request.headers.prefer);
    if (!prefer.ok) return invalid({ message: prefer.message, field: "Prefer", reason: "malformed preference" }, id);

    // What to serve: an injected fault's status, else what `Prefer` asks for, else what a magic input stands for, else
    // the usual success.
    const fault = faults.take("scraper", rules.operationId);
    const { code = fault?.status, exampleKey, dynamic } = prefer.preferences;
    const magic = code === undefined && exampleKey === undefined ? magicOf(parsed.body, operation.identifiers) : undefined;
    const outcome = magic?.magic.outcome;
    if (outcome?.kind === "rate-limited") {
      account.bucket.drain();
      return rateLimited(account, id);
    }
    let documented: Documented | undefined = code === undefined ? undefined : { code, exampleKey };
    if (outcome?.kind === "error") documented = documentedError(prism, outcome.codes);
    if (outcome?.kind === "plain-text") documented = documentedPlainText(prism);
    const success = documented === undefined || (documented.code >= 200 && documented.code < 300);
    // Error bodies always come from the description's examples: they are fixed texts, not data.
    const generated = success && (dynamic ?? options.dynamic);
    const choice: Choice = {
      code: documented?.code,
      exampleKey: documented?.exampleKey ?? exampleKey,
      dynamic: generated,
      seed: generated ? `${options.seed}:${rules.operationId}:${JSON.stringify(parsed.body)}` : undefined,
    };

    const price = rules.credits?.standard ?? 0;
    if (!accounts.reserve(account, price)) {
      return failure("INSUFFICIENT_SCRAPER_CREDITS", `Your scraper credit balance (${account.balance}) cannot cover this request (${price} credits). Top up to continue.`, id);
    }
    // Waits run on the sandbox clock: `advance` ends them early.
    if (fault?.latencyMs) await clock.sleep(fault.latencyMs);
    if (outcome?.kind === "slow") await clock.sleep((typicalDurationMs(rules)?.max ?? 0) * options.timeScale);
    const accept = documented?.accept ?? (code === undefined ? "application/json" : (request.headers.accept ?? "*/*"));
    const served = await engine.answer(prism, { headers: { accept, "content-type": "application/json" }, body: parsed.body }, choice);
    if (!served.ok) {
      accounts.settle(account, price, 0);
      // Only what a caller asked for with Prefer can be missing from the description; anything else is the sandbox's bug.
      if (prefer.preferences.code === undefined && exampleKey === undefined) throw new Error(`Prism could not answer ${rules.operationId}: ${served.detail}`);
      const message = `The Prefer header asks for a response the description does not document: ${served.detail}`;
      return invalid({ message, field: "Prefer", reason: "undocumented response" }, id);
    }
    return finish(operation, account, served, { id, body: parsed.body, reserved: price, magic: magic?.value });
  }

  const byId = new Map([...operations.values()].map((operation) => [operation.rules.operationId, operation.rules]));

  return {
    maxBodyBytes,
    tooLarge: () => failure("PAYLOAD_TOO_LARGE", `Request body exceeds the ${maxBodyBytes / 1024} KB limit.`, requestId(clock.now())),
    // The service's own answer for a moment of overload: refunded, and retried after `Retry-After`.
    busy: (message, retryAfterSeconds) => failure("SCRAPER_SYSTEM_BUSY", message, requestId(clock.now()), {}, { "Retry-After": String(retryAfterSeconds) }),
    // A bug in the sandbox is answered as the service answers its own failures: refunded, retryable, and logged.
    handle: answerAll(clock, answer, (id) => failure("INTERNAL_ERROR", "The sandbox failed to answer this request; see its log.", id)),
    reset(key) {
      accounts.reset(key);
      if (key === undefined) catalogsSince = clock.now();
    },
    statuses: (operationId) => {
      const rules = byId.get(operationId);
      return rules && Object.keys(rules.billing);
    },
    setBalance(key, credits) {
      const checked = checkKey(key);
      if (!checked.ok) return checked.message;
      return accounts.setBalance(key, credits);
    },
  };
}
