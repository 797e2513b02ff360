import { type AccountRate, type Answer, type CreditReservation, memoryBudgetStore, memoryRateLimitStore, type Outgoing, Pacer, parseJson, type Redactor, send } from "@content-scraper/runtime";
import { ScraperAbortError, ScraperApiError, ScraperConnectionError, ScraperError, ScraperInputError, ScraperResponseError } from "./errors.js";
import {
  apiError,
  type CallDefaults,
  callDetails,
  callName,
  type Exchange,
  type ExchangeConfig,
  type ExchangeOptions,
  prepare,
  scraperSendConfig,
} from "./exchange.js";
import { CreditBudget, credentialKey, Ledger, type ScraperBudgetState, type ScraperUsage } from "./ledger.js";
import { envelopeProblem, type SuccessEnvelope, successMeta } from "./meta.js";
import {
  type BudgetOptions,
  checkCallOptions,
  pageCallOptions,
  type ResolvedOptions,
  resolveBudget,
  resolveOptions,
  type ScraperClientOptions,
} from "./options.js";
import { accountRated, apiKey, expectedPrice, isNormalizedId, type OperationRules, operation, platformsWith } from "./rules.js";
import type {
  AudienceData,
  AudiencePlatform,
  AudienceRequest,
  ListedPost,
  NewPostsOptions,
  Platform,
  PostData,
  PostOptions,
  PostsData,
  PostsOptions,
  PostsPage,
  PostsWalkOptions,
  ProfileData,
  RequestOptions,
  ScraperResult,
} from "./types.js";
import { postKey, unseenPost, type Walk, walkItems, walkPages } from "./walk.js";

/** What a client shares with the clients `withOptions` derives from it: one key, one bucket, one ledger. */
interface Family {
  options: ResolvedOptions;
  auth: Readonly<Record<string, string>>;
  ledger: Ledger;
  send: ExchangeConfig["send"];
  /** The highest credits per call each operation priced at the account's rate has been charged. */
  rates: Map<string, number>;
}

/**
 * A store key: the one given, else a digest of the API key in a store shared beyond the client (so clients of one key
 * meet there), else the plain prefix in a store of the client's own.
 */
function storeKey(prefix: string, given: string | undefined, shared: boolean, apiKeyValue: string): string | Promise<string> {
  return given ?? (shared ? credentialKey(prefix, apiKeyValue) : prefix);
}

function createFamily(resolved: ResolvedOptions): Family {
  const { redactor, rateLimit } = resolved;
  const ledger = new Ledger();
  const pacer = rateLimit
    ? new Pacer(rateLimit.store ?? memoryRateLimitStore(), storeKey("scraper-rate", rateLimit.key, rateLimit.store !== undefined, resolved.apiKey), rateLimit)
    : null;
  return {
    options: resolved,
    auth: { [apiKey.name]: resolved.apiKey },
    ledger,
    send: scraperSendConfig(resolved, pacer, ledger, resolved.hooks, redactor),
    rates: new Map(),
  };
}

/** A checked `budget` as the budget it stands for, in its store (a memory store of its own by default). */
function creditBudget(budget: NonNullable<ResolvedOptions["budget"]>, apiKeyValue: string): CreditBudget {
  const key = storeKey("scraper-budget", budget.key, budget.store !== undefined, apiKeyValue);
  return new CreditBudget(budget.store ?? memoryBudgetStore(), Promise.resolve(key), budget.maxCredits);
}


/** One budget's hold on a call: released (settled at 0) if a later budget refuses the call. */
interface Hold {
  budget: CreditBudget;
  reservation: CreditReservation;
}

/** A call's answer, judged: the success envelope, or the error the call fails with, and what the service charged. */
interface Verdict {
  result: Exchange;
  envelope: SuccessEnvelope | undefined;
  failure: ScraperApiError | ScraperResponseError | undefined;
  charged: number;
}

/**
 * The hidden option `withOptions` and `withBudget` derive a client through: its family, call defaults and budgets.
 * Not exported from the package.
 */
const derived = Symbol("derived");
type Derived = { [derived]?: { family: Family; defaults: CallDefaults; budgets: readonly CreditBudget[] } };

/**
 * One request of the typed `api` door (`@content-scraper/client/api`) through a client's pipeline, as the operation
 * `rules` (the door finds them by path): its answer, with error answers returned rather than thrown (their body
 * redacted). Not exported from the package.
 */
export const sendThrough = Symbol("sendThrough");

/**
 * One call of an operation through a client's pipeline, as a method makes it: for the focused operations
 * (`@content-scraper/client/focused`). Not exported from the package.
 */
export const callThrough = Symbol("callThrough");

/**
 * The scraper client. Convenience methods return `{ data, meta, response }` and throw typed errors; `focusedClient`
 * (`@content-scraper/client/focused`) gives a platform's focused operations, and `scraperApi`
 * (`@content-scraper/client/api`) the typed openapi-fetch client for everything else. Every call, whichever door it
 * takes, goes through one pipeline: the key, pacing, the budget, timeouts, retries, hooks and the ledger.
 */
export class ScraperClient {
  readonly baseUrl: string;
  // Private fields: neither util.inspect nor JSON.stringify can reach the key.
  readonly #family: Family;
  readonly #config: ExchangeConfig;
  /** The budgets every call must fit, outermost first: the client's own `budget`, then those `withBudget` added. */
  readonly #budgets: readonly CreditBudget[];

  constructor(options: ScraperClientOptions = {}) {
    const from = (options as Derived)?.[derived];
    if (from) {
      this.#family = from.family;
      this.#budgets = from.budgets;
    } else {
      const resolved = resolveOptions(options);
      this.#family = createFamily(resolved);
      this.#budgets = resolved.budget ? [creditBudget(resolved.budget, resolved.apiKey)] : [];
    }
    const { options: resolved } = this.#family;
    this.baseUrl = resolved.baseUrl;
    this.#config = { auth: this.#family.auth, defaults: from?.defaults ?? { timeoutMs: resolved.timeoutMs }, send: this.#family.send };
  }

  async [sendThrough](outgoing: Outgoing, rules: OperationRules | undefined, signal: AbortSignal): Promise<Answer> {
    const { result } = await this.#send(outgoing, rules, { signal }, false);
    return result.response.ok ? result : { ...result, text: this.#family.options.redactor.text(result.text) };
  }

  [callThrough]<Data>(rules: OperationRules, body: unknown, options: RequestOptions | undefined): Promise<ScraperResult<Data>> {
    return this.#call(rules, body, options);
  }

  /**
   * A client with other defaults for its calls (`timeoutMs`, `maxRetries`, `headers`), sharing this one's key,
   * pacing, budget, hooks and ledger.
   */
  withOptions(defaults: Omit<RequestOptions, "signal">): ScraperClient {
    if (typeof defaults !== "object" || defaults === null) throw new ScraperInputError("options", "withOptions takes an object of call defaults.");
    checkCallOptions(defaults);
    return this.#derive({ ...this.#config.defaults, ...withoutUndefined(defaults) }, this.#budgets);
  }

  /**
   * A client whose calls must fit a budget of their own as well as this client's: an agent session's allowance inside
   * a server's, a job's inside an account's. It shares this client's key, pacing, budget, hooks, ledger and call
   * defaults; each of its calls reserves its price under every budget before it is sent (this client's first) and is
   * refused with `ScraperBudgetError` by the first that cannot take it, leaving the others as they were. `budget`
   * takes what the `budget` option takes; in a store shared with other budgets, give it a `key` of its own.
   */
  withBudget(budget: BudgetOptions): ScraperClient {
    const resolved = resolveBudget(budget);
    if (!resolved) throw new ScraperInputError("budget", "withBudget takes a budget: { maxCredits }.");
    return this.#derive(this.#config.defaults, [...this.#budgets, creditBudget(resolved, this.#family.options.apiKey)]);
  }

  #derive(defaults: CallDefaults, budgets: readonly CreditBudget[]): ScraperClient {
    return new ScraperClient({ [derived]: { family: this.#family, defaults, budgets } } as Derived as ScraperClientOptions);
  }

  /** Running totals of this client and the clients derived from it: credits charged, requests, attempts, retries, pacing waits. */
  get usage(): ScraperUsage {
    return this.#family.ledger.snapshot();
  }

  /**
   * `value` (a string, or an array or plain object of them) without this client's key in any form a server may echo it
   * (see `Redactor`), for data passed on: to a file, to an agent. Errors, log lines, hook events and `meta` come
   * redacted already; `data` comes as the service sent it.
   */
  redact<T>(value: T): T {
    return this.#family.options.redactor.value(value);
  }

  /**
   * The budget's limit, what it has spent and what it holds for calls in flight: the one `withBudget` added last, else
   * the client's own; `undefined` without a budget.
   */
  async budgetState(): Promise<ScraperBudgetState | undefined> {
    return this.#budgets.at(-1)?.state();
  }

  /** A creator's profile. */
  async profile<P extends Platform>(platform: P, username: string, options?: RequestOptions): Promise<ScraperResult<ProfileData<P>>> {
    return this.#call(this.#rules(platform, "Profile"), { username: identifier("username", username) }, options);
  }

  /** One page of a creator's posts; pass the previous page's `next_cursor` as `cursor`. */
  async posts<P extends Platform>(platform: P, username: string, options: PostsOptions<P> = {} as PostsOptions<P>): Promise<ScraperResult<PostsData<P>>> {
    const { cursor, contentType } = callOptions(options) as { cursor?: string; contentType?: string };
    return this.#call(this.#rules(platform, "Posts"), { username: identifier("username", username), cursor, contentType }, options);
  }

  /** One post by URL, with its transcript and a comment sample where requested and supported. */
  async post<P extends Platform>(platform: P, url: string, options: PostOptions = {}): Promise<ScraperResult<PostData<P>>> {
    const { includeTranscript, includeComments } = callOptions(options);
    const body = { url: identifier("url", url), include_transcript: includeTranscript, include_comments: includeComments };
    return this.#call(this.#rules(platform, "Post"), body, options);
  }

  /**
   * A creator's audience by country (25 credits). v1.3.0 does not document this request's fields: a string is
   * sent as `{ username }`, by analogy with the profile request; pass an object to send a body of your own.
   */
  async audience<P extends AudiencePlatform>(platform: P, creator: string | AudienceRequest<P>, options?: RequestOptions): Promise<ScraperResult<AudienceData<P>>> {
    const body = typeof creator === "object" && creator !== null ? creator : { username: identifier("creator", creator) };
    return this.#call(this.#rules(platform, "Audience"), body, options);
  }

  /**
   * Every post of a creator's catalog, once each (`id` + `platform`), following `next_cursor` within `maxPages` and
   * `maxCredits`. `walk.state` says where it stands and why it stopped; pass a saved one back as `resume` to go on
   * exactly there (at most its page fetched again, no post yielded twice).
   */
  walkPosts<P extends Platform>(platform: P, username: string, options: PostsWalkOptions<P> = {} as PostsWalkOptions<P>): Walk<ListedPost<P>> {
    const rules = this.#rules(platform, "Posts");
    return walkItems<PostsData<P>, ListedPost<P>>(rules, this.#postsPage<P>(platform, username, options), options, this.#price(rules), options.signal, unseenPost(), postKey);
  }

  /** The pages of a creator's catalog, with their `meta`, `nextCursor` and posts; resumable like `walkPosts`. */
  walkPages<P extends Platform>(platform: P, username: string, options: PostsWalkOptions<P> = {} as PostsWalkOptions<P>): Walk<PostsPage<P>> {
    const rules = this.#rules(platform, "Posts");
    return walkPages(rules, this.#postsPage<P>(platform, username, options), options, this.#price(rules), options.signal);
  }

  /**
   * Polls page one and yields the posts not in `seen` (post ids or `postKey`s): new posts appear at its front. `state`
   * says what the poll cost; when page one is not the last, `stoppedBecause` is `"maxPages"` and `state.cursor` is
   * where `walkPosts` goes on from.
   */
  newPosts<P extends Platform>(platform: P, username: string, options: NewPostsOptions<P>): Walk<ListedPost<P>> {
    const rules = this.#rules(platform, "Posts");
    if (typeof options?.seen?.has !== "function") throw new ScraperInputError("seen", "seen must be a Set (or anything with has()) of post ids.");
    const { seen, ...rest } = options;
    const page = this.#postsPage<P>(platform, username, rest as unknown as PostsWalkOptions<P>);
    return walkItems<PostsData<P>, ListedPost<P>>(rules, page, { maxPages: 1 }, this.#price(rules), options.signal, unseenPost(seen), postKey);
  }

  /**
   * The credits one call of `operationId` costs this account, as far as this client knows: the highest it (or a client
   * derived from it) has seen the operation charged, or `assumeRate`, whichever is more; `undefined` when it knows
   * neither. Budgets and walks count a call at this rate when it is above the description's price.
   */
  accountRate(operationId: string): number | undefined {
    const { assumeRate } = this.#family.options;
    const seen = this.#family.rates.get(operationId);
    return seen === undefined ? assumeRate : Math.max(seen, assumeRate ?? 0);
  }

  #price(rules: OperationRules): number {
    return expectedPrice(rules, this.accountRate(rules.operationId));
  }

  toJSON(): { baseUrl: string } {
    return { baseUrl: this.baseUrl };
  }

  #postsPage<P extends Platform>(platform: P, username: string, options: PostsWalkOptions<P>) {
    const call = pageCallOptions(options);
    return (cursor: string | undefined) => this.posts(platform, username, { ...call, cursor } as PostsOptions<P>);
  }

  /** The rules of `<platform><Resource>`, or a `ScraperInputError` naming the platforms that have the resource. */
  #rules(platform: string, resource: string): OperationRules {
    const id = `${platform}${resource}`;
    if (isNormalizedId(id)) return operation(id);
    const platforms = platformsWith(resource).join(", ");
    throw new ScraperInputError("platform", `platform "${String(platform)}" has no ${resource.toLowerCase()} operation; expected one of ${platforms}.`);
  }

  async #call<Data>(rules: OperationRules, body: unknown, options: RequestOptions = {}): Promise<ScraperResult<Data>> {
    checkCallOptions(options);
    const outgoing: Outgoing = {
      url: `${this.baseUrl}${rules.path}`,
      method: rules.method,
      ...(body === undefined ? {} : { headers: jsonHeaders, body: jsonBody(body) }),
    };
    const { result, envelope } = await this.#send(outgoing, rules, options, true, body);
    const { response, attempts, elapsedMs } = result;
    const success = envelope as SuccessEnvelope;
    // What the SDK adds is redacted; `data` is returned as the service sent it (redacting every body would cost every call).
    const { redactor } = this.#family.options;
    const headers = redactor.headers(response.headers);
    return { data: success.data as Data, meta: successMeta(success, headers, redactor), response: { status: response.status, headers, attempts, elapsedMs } };
  }

  /**
   * The one pipeline of both doors: reserve the operation's price under the budget, send (pacing, timeouts, retries,
   * hooks), judge the answer, count and settle what it charged, and fail with the call's typed error. `api` calls
   * (`throwApiErrors` false) return error answers to openapi-fetch; a malformed success fails both doors.
   */
  async #send(outgoing: Outgoing, rules: OperationRules | undefined, options: ExchangeOptions, throwApiErrors: boolean, body?: unknown): Promise<Verdict> {
    const { ledger, options: resolved, rates } = this.#family;
    const price = rules && "credits" in rules ? rules.credits.standard : 0;
    const details = callDetails(rules, ++ledger.requests);
    let holds: Hold[] = [];
    try {
      // Without a budget nothing is reserved nor settled: no await of the hot path for them.
      if (price > 0 && this.#budgets.length > 0) {
        const rate = rules && accountRated(rules) ? { operation: rules.operationId, known: resolved.assumeRate !== undefined || rates.has(rules.operationId) } : undefined;
        holds = await this.#reserve(callName(outgoing, rules), this.#price(rules as OperationRules), rate, options.signal);
      }
      const { request, call } = prepare(this.#config, outgoing, rules, options, details);
      const result: Exchange = { rules, ...(await send(this.#config.send, request, call)) };
      const verdict = judge(result, price, resolved.redactor);
      ledger.creditsCharged += verdict.charged;
      const rate = observedRate(verdict);
      if (rate !== undefined && accountRated(rules)) rates.set((rules as OperationRules).operationId, Math.max(rate, rates.get((rules as OperationRules).operationId) ?? 0));
      resolved.logger.info?.(`scraper: ${callName(outgoing, rules)} answered ${result.response.status} in ${Math.round(result.elapsedMs)} ms, ${verdict.charged} credit(s)`, {
        ...details,
        identifier: identifierOf(body),
        status: result.response.status,
        durationMs: Math.round(result.elapsedMs),
        attempts: result.attempts,
        creditsCharged: verdict.charged,
        requestId: verdict.envelope?.request_id ?? (verdict.failure instanceof ScraperApiError ? verdict.failure.requestId : undefined),
      });
      if (holds.length > 0) await this.#settle(holds, budgetCharge(verdict, price), rate);
      holds = [];
      this.#checked(verdict);
      if (verdict.failure && (throwApiErrors || verdict.failure instanceof ScraperResponseError)) throw verdict.failure;
      return verdict;
    } catch (thrown) {
      const error = resolved.redactor.error(thrown);
      // No answer (a timeout, a broken connection, an abort in flight): the service may have billed it, so the budget
      // keeps what it reserved. A request that never left this machine cannot have been billed.
      const unsent = (error instanceof ScraperAbortError || error instanceof ScraperConnectionError) && !error.inFlight;
      await this.#settle(holds, unsent ? 0 : "reserved");
      if (error instanceof ScraperError) resolved.hooks?.onError?.({ name: callName(outgoing, rules), details, error });
      throw error;
    }
  }

  /** Reserves `price` under every budget, outermost first; a refusal (or a store's failure) releases what was held. */
  async #reserve(name: string, price: number, rate: AccountRate | undefined, signal: AbortSignal | undefined): Promise<Hold[]> {
    const holds: Hold[] = [];
    try {
      for (const budget of this.#budgets) holds.push({ budget, reservation: await budget.reserve(name, price, rate, signal) });
    } catch (error) {
      await this.#settle(holds, 0);
      throw error;
    }
    return holds;
  }

  /** Settles every hold at `charged`, or at what each reserved (`"reserved"`: an outcome that may have been billed); `rate` as the answer showed it. */
  async #settle(holds: readonly Hold[], charged: number | "reserved", rate?: number): Promise<void> {
    for (const { budget, reservation } of holds) {
      try {
        await budget.settle(reservation, charged === "reserved" ? reservation.credits : charged, rate);
      } catch (error) {
        // A store out of reach: the reservation lapses as the store says; the call's own outcome stands.
        this.#family.options.logger.warn?.("scraper: the budget store failed to settle a reservation", { error: String(error) });
      }
    }
  }

  /** With `validateResponses`, a body that drifts from the description throws, naming the path. */
  #checked({ result, envelope }: Verdict): void {
    const validate = this.#family.options.validateResponses;
    if (!validate || !result.rules) return;
    const contentType = result.response.headers.get("content-type") ?? "";
    if (!contentType.includes("json")) return;
    const outcome = validate(result.rules.operationId, result.response.status, envelope ?? parseJson(result.text));
    if (outcome.valid) return;
    const problems = outcome.errors ?? [];
    const first = problems[0];
    throw malformed(result.rules, result.response.status, `does not match the description${first ? `: ${first.message}` : ""}`, problems);
  }
}

const jsonHeaders = { "content-type": "application/json" };

/**
 * What an answer is. A success must be JSON and the success envelope (an object with `data`, `meta`, `request_id`,
 * `upstream_calls`), else a `ScraperResponseError` naming the operation; its charge is `meta.credits_charged`. An
 * error answer is a `ScraperApiError`, charged only when it is the service's own (see `apiError`).
 */
function judge(result: Exchange, price: number, redactor: Redactor): Verdict {
  const { rules, response, text } = result;
  if (!response.ok) {
    const failure = apiError(result, redactor);
    return { result, envelope: undefined, failure, charged: failure.creditsCharged ?? (failure.billed ? price : 0) };
  }
  if (!rules) return { result, envelope: undefined, failure: undefined, charged: 0 };
  const parsed = parseJson(text);
  const problem = parsed === undefined ? undefined : envelopeProblem(parsed);
  if (parsed === undefined || problem) {
    const failure = problem
      ? malformed(rules, response.status, `is not the success envelope: ${problem.message}`, [problem])
      : malformed(rules, response.status, `is not valid JSON (${text.length} bytes; truncated?)`);
    return { result, envelope: undefined, failure, charged: 0 };
  }
  const envelope = parsed as SuccessEnvelope;
  return { result, envelope, failure: undefined, charged: envelope.meta.credits_charged };
}

/** What one call cost the account, where the answer said (a success's `meta`, a billed error's header), if anything. */
function observedRate({ envelope, failure }: Verdict): number | undefined {
  const charged = envelope ? envelope.meta.credits_charged : failure instanceof ScraperApiError ? failure.creditsCharged : undefined;
  return charged !== undefined && charged > 0 ? charged : undefined;
}

/**
 * What a call counts against the budget: a success at what it charged but never less than its description price
 * (every success is billed, standard 1 credit, so no answer can make the budget last longer), a success the client
 * could not read at its price (what it cost is unknown), an error answer at what it charged.
 */
function budgetCharge({ result, envelope, charged }: Verdict, price: number): number {
  if (!result.response.ok) return charged;
  return envelope ? Math.max(charged, price) : price;
}

/** A success whose body is not what the description promises; `what` says how, naming the operation and the status. */
function malformed(rules: OperationRules, status: number, what: string, problems?: ScraperResponseError["problems"]): ScraperResponseError {
  return new ScraperResponseError(`${rules.operationId} answered ${status} with a body that ${what}`, rules.operationId, status, problems);
}

/** What a call is about, for its log line: the first string of its body (the username, URL, handle or query). */
function identifierOf(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  return Object.values(body).find((value): value is string => typeof value === "string");
}

/** A method's identifier argument (a username, a URL): a non-empty string, else a `ScraperInputError` naming it. */
function identifier(field: string, value: unknown): string {
  if (typeof value !== "string" || value === "") throw new ScraperInputError(field, `${field} must be a non-empty string.`);
  return value;
}

/** A method's options argument: an object (or undefined), else a `ScraperInputError`. */
function callOptions<T extends object>(options: T | undefined): Partial<T> {
  if (options === undefined) return {};
  if (typeof options !== "object" || options === null) throw new ScraperInputError("options", "options must be an object of call options.");
  return options;
}

/** The request body as JSON, or a `ScraperInputError` for a value JSON cannot carry (a cycle, a BigInt). */
function jsonBody(body: unknown): string {
  try {
    return JSON.stringify(body);
  } catch (error) {
    throw new ScraperInputError("body", `the request body cannot be sent as JSON: ${(error as Error).message}`);
  }
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>;
}

/** Creates a scraper client. Throws `ScraperInputError` naming the option when one is unusable. */
export function createScraperClient(options?: ScraperClientOptions): ScraperClient {
  return new ScraperClient(options);
}
