/** What every error of the SDK may say of the answer it concerns, besides its message. */
export interface ContentScraperErrorOptions {
  /** The HTTP status of the answer, where there was one. */
  status?: number | undefined;
  /** The service's request id, where the answer carried one: quote it to support. */
  requestId?: string | undefined;
  cause?: unknown;
}

/**
 * The one base of every error the SDK's packages throw (`ScraperError`, `PlatformError`, `ConnectError`,
 * `RedisStoreError`, …): the answer's `status` and `requestId` where there was one. A client passes each error it lets
 * out through its `Redactor`, so the message, every field copied from an answer and the `cause` chain hold no
 * credential; `toJSON` gives the same fields a log line needs.
 */
export class ContentScraperError extends Error {
  override name = "ContentScraperError";
  readonly status: number | undefined;
  readonly requestId: string | undefined;

  constructor(message: string, options: ContentScraperErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = options.status;
    this.requestId = options.requestId;
  }

  /** The error as a log line's JSON: its name, message and fields (never a credential); the cause by its message. */
  toJSON(): Record<string, unknown> {
    const cause = this.cause instanceof Error ? `${this.cause.name}: ${this.cause.message}` : this.cause;
    return { ...(this as object), name: this.name, message: this.message, ...(cause === undefined ? {} : { cause }) };
  }
}

