import { parseArgs } from "node:util";
import { connectSandbox } from "./client.js";
import { SandboxControlError } from "./plane.js";

// `content-scraper-mock <command>`: the control API's functions for a sandbox already running (`--url`, else
// $CONTENT_SCRAPER_MOCK_URL, else http://127.0.0.1:4010), one line of output each (`--json` for the raw answer). A
// sandbox listening beyond loopback wants its control token: `--control-token`, else $CONTENT_SCRAPER_MOCK_CONTROL_TOKEN.

/** Where the bin and its commands read a control token that no flag gives. */
export const controlTokenVariable = "CONTENT_SCRAPER_MOCK_CONTROL_TOKEN";

export const commandsUsage = `commands, for a running sandbox (--url <origin>, default $CONTENT_SCRAPER_MOCK_URL or http://127.0.0.1:4010;
--control-token <token>, default $${controlTokenVariable}, for a sandbox beyond loopback; --json for raw output):
  reset [--credential <key or token>]     forget all state, or one credential's
  advance <duration>                      move the sandbox clock forward (90, 90s, 15m, 24h, 2d)
  clock                                   print the sandbox clock
  balance <scraper key> <credits>         set a key's credit balance
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

export const commandNames = ["reset", "advance", "clock", "balance", "log", "fault", "faults"] as const;

/** Runs one command against a running sandbox and prints its answer; the exit status is the process's. */
export async function runCommand(command: (typeof commandNames)[number], args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: "string" },
      "control-token": { type: "string" },
      json: { type: "boolean", default: false },
      credential: { type: "string" },
      operation: { type: "string" },
      surface: { type: "string" },
      limit: { type: "string" },
      status: { type: "string" },
      latency: { type: "string" },
      count: { type: "string" },
    },
  });
  const token = values["control-token"] ?? process.env[controlTokenVariable];
  const control = connectSandbox(values.url ?? process.env.CONTENT_SCRAPER_MOCK_URL ?? "http://127.0.0.1:4010", { token: token || undefined });
  const print = (answer: unknown, line: string) => console.log(values.json ? JSON.stringify(answer, null, 2) : line);
  switch (command) {
    case "reset":
      await control.reset(values.credential);
      return print({ reset: values.credential === undefined ? "all" : "credential" }, values.credential === undefined ? "reset: all state" : "reset: that credential's state");
    case "advance": {
      const clock = await control.advance(seconds("duration", positionals[0]));
      return print(clock, `sandbox clock: ${clock.now} (${clock.advancedSeconds} s ahead of real time)`);
    }
    case "clock": {
      const clock = await control.clock();
      return print(clock, `sandbox clock: ${clock.now} (${clock.advancedSeconds} s ahead of real time)`);
    }
    case "balance": {
      const [key, credits] = positionals;
      if (key === undefined) throw new SandboxControlError("key", "balance needs a scraper key and a number of credits.");
      await control.setBalance(key, count("credits", credits) ?? Number.NaN);
      return print({ credits: Number(credits) }, `balance: ${credits} credits`);
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
