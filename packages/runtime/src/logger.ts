/** Where a client reports requests and retries. Never given a credential: nothing secret reaches a log line. */
export interface Logger {
  debug?(message: string, details?: Record<string, unknown>): void;
  info?(message: string, details?: Record<string, unknown>): void;
  warn?(message: string, details?: Record<string, unknown>): void;
  error?(message: string, details?: Record<string, unknown>): void;
}

/** The logger that logs nothing: every client's default. */
export const silentLogger: Logger = {};
