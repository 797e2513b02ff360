import { Redactor } from "@content-scraper/runtime";

/**
 * Where the CLI speaks, through the one `Redactor` that knows every credential it holds (the scraper key, the Redis
 * password): every line on stdout and stderr and every file it writes (`OutputFolder`) passes through it, so a server
 * that echoes the key into a message, a post or a cursor cannot make the CLI print or store it.
 */
export interface Io {
  readonly redactor: Redactor;
  stdout(text: string): void;
  stderr(text: string): void;
}

/** The environment variables that hold credentials: their values are redacted wherever the CLI writes. */
export const secretVariables = ["SCRAPER_API_KEY", "CONTENT_SCRAPER_REDIS_PASSWORD"] as const;

/** The password of a Redis URL, if it holds one (for the redactor). */
export function urlPassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

/** The process's streams, redacted of the credentials in its environment. */
export function processIo(env: NodeJS.ProcessEnv = process.env): Io {
  const redactor = new Redactor([...secretVariables.map((name) => env[name]), urlPassword(env.CONTENT_SCRAPER_REDIS_URL)]);
  return {
    redactor,
    stdout: (text) => process.stdout.write(redactor.text(text)),
    stderr: (text) => process.stderr.write(redactor.text(text)),
  };
}
