import { parseArgs } from "node:util";
import { connectSandbox } from "./client.js";
import { apiKeyVariable, controlToken, controlTokenVariable, readSecretFile, refuseMoved, scraperKey, UsageError } from "./command-line.js";
import { SandboxControlError } from "./plane.js";

// `content-scraper-mock <command>`: the control API's functions for a sandbox already running (`--url`, else
// $CONTENT_SCRAPER_MOCK_URL, else http://127.0.0.1:4010), one line of output each (`--json` for the raw answer). A
// sandbox listening beyond loopback wants its control token: `--control-token-file`, else
// $CONTENT_SCRAPER_MOCK_CONTROL_TOKEN. No secret is taken on the command line (see command-line.ts).

export const commandsUsage = `commands, for a running sandbox (--url <origin>, default $CONTENT_SCRAPER_MOCK_URL or http://127.0.0.1:4010;
the control token of a sandbox beyond loopback from $${controlTokenVariable} or --control-token-file <path>;
--json for raw output). Keys and tokens come from the environment or a file of mode 0600, never the command line:
  reset [--scraper-key | --credential-file <path>]
                                          forget all state, or only that of the key in $${apiKeyVariable}
                                          or of the key or token in the file
  advance <duration>                      move the sandbox clock forward (90, 90s, 15m, 24h, 2d)
  clock                                   print the sandbox clock
  balance --credits <n> [--key-file <path>]
                                          set the credit balance of the key in $${apiKeyVariable} (or the file)
  log [--operation <id>] [--surface <name>] [--limit <n>]
                                          print the request log
  fault <operation> [--status <code>] [--latency <duration>] [--count <n>] [--surface <name>]
                                          answer the operation's next requests with a documented status, or late
  faults                                  print the faults still waiting`;

const units: Record<string, number> = { "": 1, s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds in `90`, `90s`, `15m`, `24h`, `2d`. */
function seconds(name: string, value: string | undefined): number {
  const match = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(value ?? "");
  if (!match) throw new SandboxControlError(name, `${name} must be a duration such as 90, 90s, 15m, 24h or 2d (got "${value ?? ""}").`);
  return Number(match[1]) * (units[match[2] as string] as number);
}

function count(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed) || parsed < 0) throw new SandboxControlError(name, `${name} must be a whole number (got "${value}").`);
  return parsed;
}

/** Whose state `reset` forgets: the key in $SCRAPER_API_KEY, the credential in a file, or (neither) everyone's. */
function resetCredential(fromEnvironment: boolean, file: string | undefined): string | undefined {
  if (fromEnvironment && file !== undefined) throw new UsageError("--scraper-key", "reset takes --scraper-key or --credential-file, not both.");
  if (file !== undefined) return readSecretFile("--credential-file", file);
  if (!fromEnvironment) return undefined;
  const key = scraperKey(undefined, process.env);
  if (key === undefined) throw new UsageError(apiKeyVariable, `reset --scraper-key reads the key in $${apiKeyVariable}, which is not set.`);
  return key;
}

export const commandNames = ["reset", "advance", "clock", "balance", "log", "fault", "faults"] as const;

/** Runs one command against a running sandbox and prints its answer; the exit status is the process's. */
export async function runCommand(command: (typeof commandNames)[number], args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: "string" },
      // Taken only to be refused: see command-line.ts.
      "control-token": { type: "string" },
      credential: { type: "string" },
      "control-token-file": { type: "string" },
      "key-file": { type: "string" },
      "credential-file": { type: "string" },
      "scraper-key": { type: "boolean", default: false },
      credits: { type: "string" },
      json: { type: "boolean", default: false },
      operation: { type: "string" },
      surface: { type: "string" },
      limit: { type: "string" },
      status: { type: "string" },
      latency: { type: "string" },
      count: { type: "string" },
    },
  });
  refuseMoved("--control-token", values["control-token"]);
  refuseMoved("--credential", values.credential);
  const token = controlToken(values["control-token-file"], process.env);
  const control = connectSandbox(values.url ?? process.env.CONTENT_SCRAPER_MOCK_URL ?? "http://127.0.0.1:4010", { token });
  const print = (answer: unknown, line: string) => console.log(values.json ? JSON.stringify(answer, null, 2) : line);
  switch (command) {
    case "reset": {
      refuseMoved("credential", positionals[0]);
      const credential = resetCredential(values["scraper-key"], values["credential-file"]);
      await control.reset(credential);
      return print({ reset: credential === undefined ? "all" : "credential" }, credential === undefined ? "reset: all state" : "reset: that credential's state");
    }
    case "advance": {
      const clock = await control.advance(seconds("duration", positionals[0]));
      return print(clock, `sandbox clock: ${clock.now} (${clock.advancedSeconds} s ahead of real time)`);
    }
    case "clock": {
      const clock = await control.clock();
      return print(clock, `sandbox clock: ${clock.now} (${clock.advancedSeconds} s ahead of real time)`);
    }
    case "balance": {
      refuseMoved("key", positionals[0]);
      const credits = count("credits", values.credits);
      if (credits === undefined) throw new UsageError("--credits", "balance needs --credits <n>, the key's new balance.");
      const key = scraperKey(values["key-file"], process.env);
      if (key === undefined) throw new UsageError("key", `balance needs a scraper key: set $${apiKeyVariable}, or pass --key-file <path> (a file of mode 0600).`);
      await control.setBalance(key, credits);
      return print({ credits }, `balance: ${credits} credits`);
    }
    case "log": {
      const entries = await control.log({ operation: values.operation, surface: values.surface, limit: count("limit", values.limit) });
      const lines = entries.map((entry) => `${entry.time} ${entry.method} ${entry.path} ${entry.status} credits=${entry.creditsCharged ?? "-"} ${entry.requestId ?? "-"}`);
      return print(entries, lines.join("\n") || "(no requests)");
    }
    case "fault": {
      const fault = await control.inject({
        operation: positionals[0] as string,
        surface: values.surface,
        status: count("status", values.status),
        latencySeconds: values.latency === undefined ? undefined : seconds("latency", values.latency),
        count: count("count", values.count),
      });
      return print(fault, `fault: the next ${fault.remaining} ${fault.surface} ${fault.operation} request(s)${fault.status === undefined ? "" : ` answer ${fault.status}`}${fault.latencySeconds === undefined ? "" : ` after ${fault.latencySeconds} s`}`);
    }
    case "faults": {
      const faults = await control.faults();
      return print(faults, faults.map((fault) => `${fault.surface} ${fault.operation}: ${fault.remaining} left, status ${fault.status ?? "-"}, latency ${fault.latencySeconds ?? 0} s`).join("\n") || "(no faults)");
    }
  }
}
