import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { checkControlToken } from "./guard.js";

// Every user of a machine can read a process's command line (`ps`, /proc/<pid>/cmdline) for as long as it runs, so the
// bin takes no secret there: the control token and the keys its commands send come from the environment, or from a
// file only its owner can read. The flags that once took them are refused, with where the secret goes now, rather than
// dropped as unknown: an unknown flag's value would be read as an argument and repeated in the error.

/** Where the bin and its commands read the control token. */
export const controlTokenVariable = "CONTENT_SCRAPER_MOCK_CONTROL_TOKEN";
/** Where `balance` (and `reset --scraper-key`) read the scraper key: the variable the client reads it from. */
export const apiKeyVariable = "SCRAPER_API_KEY";

/** A flag or variable the bin cannot use, found before anything is sent: exit status 2. `field` names it. */
export class UsageError extends Error {
  override readonly name = "UsageError";
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const visible = "on the command line, where every user of this machine can read it";

const toFile = (flag: string) => `${flag} <path> (a file of mode 0600)`;

/** What took a secret on the command line, by the field its refusal names, with where that secret goes now. */
const moved = {
  "--control-token": `--control-token takes no token ${visible}: set $${controlTokenVariable}, or pass ${toFile("--control-token-file")}.`,
  "--credential": `reset --credential takes no credential ${visible}: pass ${toFile("--credential-file")}, or --scraper-key for the key in $${apiKeyVariable}.`,
  key: `balance takes no key ${visible}: set $${apiKeyVariable}, or pass ${toFile("--key-file")}; the credits go in --credits <n>.`,
  credential: `reset takes no credential ${visible}: pass ${toFile("--credential-file")}, or --scraper-key for the key in $${apiKeyVariable}.`,
} as const;

/** Refuses what took a secret when it is given, saying where the secret goes now (and never what was given). */
export function refuseMoved(field: keyof typeof moved, given: unknown): void {
  if (given !== undefined) throw new UsageError(field, moved[field]);
}

/**
 * The secret a file holds (surrounding whitespace and the final newline left out), refused unless only its owner may
 * read or write it (mode 0600 or 0400): a secret that other users can read has gone to them already. The message names
 * the file and its mode, never its content.
 */
export function readSecretFile(flag: string, path: string): string {
  // Windows reports no owner-only mode for any file: the check cannot be made there, so the file is not taken at all.
  if (process.platform === "win32") throw new UsageError(flag, `${flag} cannot check who may read a file on Windows: use the environment variable instead.`);
  let descriptor: number;
  try {
    descriptor = openSync(path, "r");
  } catch (error) {
    throw new UsageError(flag, `${flag}: cannot open ${path} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  try {
    // The mode of the file opened, not of whatever the path names a moment later.
    const stat = fstatSync(descriptor);
    if (!stat.isFile()) throw new UsageError(flag, `${flag}: ${path} is not a file.`);
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) !== 0) {
      const octal = mode.toString(8).padStart(4, "0");
      throw new UsageError(flag, `${flag}: ${path} has mode ${octal}, so other users of this machine may read it: make it its owner's alone (chmod 600 ${path}).`);
    }
    const secret = readFileSync(descriptor, "utf8").trim();
    if (secret === "") throw new UsageError(flag, `${flag}: ${path} is empty.`);
    return secret;
  } finally {
    closeSync(descriptor);
  }
}

/** A secret from a file (when its flag names one), else from an environment variable (empty counts as unset). */
function secretFrom(flag: string, path: string | undefined, variable: string, env: NodeJS.ProcessEnv): { secret: string; source: string } | undefined {
  if (path !== undefined) return { secret: readSecretFile(flag, path), source: `${flag} ${path}` };
  const value = env[variable];
  return value ? { secret: value, source: `$${variable}` } : undefined;
}

/**
 * The control token, from `--control-token-file` or else `$CONTENT_SCRAPER_MOCK_CONTROL_TOKEN`, checked here so that
 * the refusal names where it came from; `undefined` when neither gives one.
 */
export function controlToken(file: string | undefined, env: NodeJS.ProcessEnv): string | undefined {
  const found = secretFrom("--control-token-file", file, controlTokenVariable, env);
  if (!found) return undefined;
  try {
    return checkControlToken(found.secret);
  } catch (error) {
    throw new UsageError(file === undefined ? controlTokenVariable : "--control-token-file", `${found.source}: ${(error as Error).message}`);
  }
}

/** The scraper key, from `--key-file` or else `$SCRAPER_API_KEY`; `undefined` when neither gives one. */
export const scraperKey = (file: string | undefined, env: NodeJS.ProcessEnv): string | undefined => secretFrom("--key-file", file, apiKeyVariable, env)?.secret;
