import { BoundedMap } from "./bounded.js";
import type { SandboxClock } from "./control/clock.js";
import { stateLimits } from "./limits.js";
import type { Engine, PrismOperation } from "./scraper/engine.js";
import { jsonHeaders } from "./scraper/prism-calls.js";
import { TokenBucket } from "./scraper/token-bucket.js";

// Pieces the neighbouring surfaces (platform, platform-legacy, connect) share with the scraper's: the Prism engine, the
// token bucket, and routing by path template (their paths carry parameters, the scraper's do not).

/** The path of a server URL, its variables filled in (`https://{host}/api/v1` → `/api/v1`; `https://{host}` → ``). */
export function serverPath(url: string): string {
  return new URL(url.replace(/\{[^}]*\}/g, "sandbox"), "http://sandbox").pathname.replace(/\/$/, "");
}

/**
 * The operation a method and path name below `basePath`, matching `{param}` templates segment by segment. An operation
 * is found only below the base path of its own server (Prism gives each the operation's, path item's or document's).
 */
export function operationRouter(engine: Engine): (method: string, path: string, basePath: string) => PrismOperation | "method" | undefined {
  const entries = [...engine.operations.values()].map((operation) => ({
    operation,
    basePath: serverPath(operation.servers?.[0]?.url ?? "/"),
    pattern: new RegExp(`^${operation.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`),
  }));
  return (method, path, basePath) => {
    const matching = entries.filter((entry) => entry.basePath === basePath && entry.pattern.test(path));
    if (!matching.length) return undefined;
    return matching.find((entry) => entry.operation.method.toUpperCase() === method.toUpperCase())?.operation ?? "method";
  };
}

/** One limit of a surface's `x-rate-limits`, as codegen put it in the operation table. */
interface StatedLimit {
  readonly calls: string;
  readonly requests: number | null;
  readonly periodSeconds: number | null;
  readonly accounts?: string;
}

/** Requests per minute of the limit the description states for `calls` (for every account, not a special class). */
export function statedPerMinute(limits: readonly StatedLimit[] | null, calls: string): number {
  const limit = limits?.find((entry) => entry.calls === calls && entry.accounts === undefined);
  if (!limit?.requests || !limit.periodSeconds) throw new Error(`the description states no "${calls}" rate limit`);
  return (limit.requests * 60) / limit.periodSeconds;
}

/**
 * One token bucket per credential, created on first use on the sandbox clock. Bounded (`stateLimits.buckets`): the
 * least recently used is forgotten first, and starts full again if its credential comes back. No money rides on it.
 */
export class Buckets {
  readonly #buckets = new BoundedMap<TokenBucket>(stateLimits.buckets);
  constructor(
    readonly requestsPerMinute: number,
    readonly clock: SandboxClock,
  ) {}

  get(credential: string): TokenBucket {
    let bucket = this.#buckets.use(credential);
    if (!bucket) {
      // A minute of allowance can be spent at once, refilled continuously: the scraper's mechanism, a sandbox choice here.
      bucket = new TokenBucket(this.requestsPerMinute, 60, () => this.clock.now());
      this.#buckets.set(credential, bucket);
    }
    return bucket;
  }

  /** Forgets one credential's bucket, or every bucket. */
  reset(credential?: string): void {
    if (credential === undefined) this.#buckets.clear();
    else this.#buckets.delete(credential);
  }
}

/** `X-RateLimit-*` headers of a bucket. */
export function rateLimitHeaders(bucket: TokenBucket): Record<string, string> {
  const state = bucket.state();
  return { "X-RateLimit-Limit": String(state.limit), "X-RateLimit-Remaining": String(state.remaining), "X-RateLimit-Reset": String(state.reset) };
}

/** The first value of a header. */
export function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Prism's documented success (the first 2XX example) for an operation. */
export async function documentedSuccess(engine: Engine, operation: PrismOperation, body: unknown, dynamic: boolean, seed: string) {
  const served = await engine.answer(operation, { headers: jsonHeaders, body }, { dynamic, seed });
  if (!served.ok) throw new Error(`Prism could not answer ${operation.iid ?? operation.id}: ${served.detail}`);
  return served;
}

/** The parts of a query parameter's schema the sandbox checks. */
interface QuerySchema {
  type?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

/**
 * The first query parameter sent outside its documented schema, said plainly: an integer's type and range (`minimum`,
 * `maximum`), a string's length (`minLength`, `maxLength`, in characters) and `pattern`.
 */
export function queryProblem(operation: PrismOperation, query: URLSearchParams | undefined): string | undefined {
  for (const parameter of operation.request?.query ?? []) {
    const value = query?.get(parameter.name);
    const schema = parameter.schema as QuerySchema | undefined;
    if (value === null || value === undefined || schema === undefined) continue;
    const problem = schema.type === "integer" ? integerProblem(value, schema) : schema.type === "string" ? stringProblem(value, schema) : undefined;
    if (problem) return `${parameter.name} ${problem}.`;
  }
  return undefined;
}

function integerProblem(value: string, schema: QuerySchema): string | undefined {
  const number = Number(value);
  if (value.trim() === "" || !Number.isInteger(number)) return "must be an integer";
  if (schema.maximum !== undefined && number > schema.maximum) return `must be at most ${schema.maximum}`;
  if (schema.minimum !== undefined && number < schema.minimum) return `must be at least ${schema.minimum}`;
  return undefined;
}

function stringProblem(value: string, schema: QuerySchema): string | undefined {
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) return value === "" ? "must not be empty" : `must be at least ${schema.minLength} characters long`;
  if (schema.maxLength !== undefined && length > schema.maxLength) return `must be at most ${schema.maxLength} characters long`;
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return `must match the pattern ${schema.pattern}`;
  return undefined;
}
