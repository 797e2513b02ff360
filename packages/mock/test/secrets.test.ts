// No secret on the bin's command line: every user of the machine reads /proc/<pid>/cmdline. The control token and the
// keys the commands send come from the environment or a file of mode 0600; the flags that took them are refused with
// where they go now; startMock()'s handle keeps its token out of util.inspect and JSON.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { connectSandbox, type RunningMock, type SandboxControlError } from "../src/index.js";
import { call, freshKey, operations, start } from "./support.js";

// The bin starts Prism in a fresh process: allow for a machine busy with other suites.
vi.setConfig({ testTimeout: 90_000 });

const bin = fileURLToPath(new URL("../dist/bin/mock.js", import.meta.url));
const token = "argv-test-token-0123456789abcdef";
const key = "scrape_live_argv_secret_key";
// None of the test runner's own: each run below says where its secrets come from.
const clean = { ...process.env, CONTENT_SCRAPER_MOCK_CONTROL_TOKEN: undefined, SCRAPER_API_KEY: undefined, CONTENT_SCRAPER_MOCK_URL: undefined };

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "mock-secrets-"));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A file holding `secret` (with a final newline, as an editor leaves it), of mode `mode`. */
function secretFile(name: string, secret: string, mode = 0o600): string {
  const path = join(folder, name);
  writeFileSync(path, `${secret}\n`, { mode });
  chmodSync(path, mode);
  return path;
}

/** What every user of the machine reads of a process's command line. */
const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the bin to its end. */
function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], { env: { ...clean, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? (error.code as number) : 0, stdout, stderr });
    });
  });
}

let server: ChildProcess | undefined;
afterEach(() => {
  server?.kill("SIGKILL");
  server = undefined;
});

/** Starts the sandbox bin on a free port and resolves once it serves, with its origin and its output so far. */
async function serve(args: string[], env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; origin: string; output: () => string }> {
  const child = spawn(process.execPath, [bin, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"], env: { ...clean, ...env } });
  server = child;
  let output = "";
  for (const stream of [child.stdout, child.stderr]) stream?.on("data", (chunk: Buffer) => (output += chunk));
  for (let waited = 0; !/Ctrl-C stops it/.test(output); waited += 50) {
    if (waited > 60_000 || child.exitCode !== null) throw new Error(`the sandbox did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, origin: new URL(/scraper\s+(http\S+)/.exec(output)?.[1] as string).origin, output: () => output };
}

describe("the sandbox's control token", () => {
  it.each([
    ["the environment", () => ({ args: [], env: { CONTENT_SCRAPER_MOCK_CONTROL_TOKEN: token } })],
    ["a file of mode 0600", () => ({ args: ["--control-token-file", secretFile("token", token)], env: {} })],
  ])("comes from %s, stays off the command line, and is wanted", async (_source, given) => {
    const { args, env } = given();
    const { child, origin, output } = await serve(args, env);
    expect(commandLine(child.pid as number)).toContain("--port 0");
    expect(commandLine(child.pid as number)).not.toContain(token);
    expect(output()).toContain("send Authorization: Bearer <the token you gave>");
    expect(output()).not.toContain(token);

    const refused = await connectSandbox(origin).clock().catch((error: unknown) => error);
    expect((refused as SandboxControlError).field).toBe("Authorization");
    const clock = await run(["clock", "--url", origin], { CONTENT_SCRAPER_MOCK_CONTROL_TOKEN: token });
    expect([clock.code, clock.stdout], clock.stderr).toEqual([0, expect.stringContaining("sandbox clock:")]);
    const fromFile = await run(["faults", "--url", origin, "--control-token-file", secretFile("command-token", token)]);
    expect([fromFile.code, fromFile.stdout], fromFile.stderr).toEqual([0, "(no faults)\n"]);
    child.kill("SIGTERM");
    expect((await once(child, "exit"))[0]).toBe(0);
  });

  it("is refused on the command line, by the sandbox and by every command, saying where it goes now", async () => {
    for (const args of [["--control-token", token], [`--control-token=${token}`, "--port", "0"], ["clock", "--control-token", token], ["balance", "--credits", "3", "--control-token", token]]) {
      const refused = await run(args, { SCRAPER_API_KEY: key });
      expect(refused.code, args.join(" ")).toBe(2);
      expect(refused.stderr).toContain("--control-token takes no token on the command line, where every user of this machine can read it");
      expect(refused.stderr).toContain("set $CONTENT_SCRAPER_MOCK_CONTROL_TOKEN, or pass --control-token-file <path> (a file of mode 0600)");
      expect(refused.stdout + refused.stderr).not.toContain(token);
    }
  });

  it("is refused from a file that other users may read, naming the file and its mode", async () => {
    for (const mode of [0o644, 0o640, 0o604]) {
      const path = secretFile(`open-${mode.toString(8)}`, token, mode);
      for (const args of [["--control-token-file", path], ["clock", "--control-token-file", path]]) {
        const refused = await run(args);
        expect(refused.code, args.join(" ")).toBe(2);
        expect(refused.stderr).toContain(`--control-token-file: ${path} has mode 0${mode.toString(8)}, so other users of this machine may read it`);
        expect(refused.stderr).not.toContain(token);
      }
    }
    const missing = await run(["--control-token-file", join(folder, "nothing")]);
    expect([missing.code, missing.stderr]).toEqual([2, expect.stringContaining(`--control-token-file: cannot open ${join(folder, "nothing")} (ENOENT)`)]);
    const empty = await run(["clock", "--control-token-file", secretFile("empty", "")]);
    expect([empty.code, empty.stderr]).toEqual([2, expect.stringContaining("is empty")]);
  });

  it("that is unfit for a header is refused naming where it came from, without echoing it", async () => {
    const short = "short-token";
    const fromEnvironment = await run(["--port", "0"], { CONTENT_SCRAPER_MOCK_CONTROL_TOKEN: short });
    expect([fromEnvironment.code, fromEnvironment.stderr]).toEqual([2, expect.stringContaining("$CONTENT_SCRAPER_MOCK_CONTROL_TOKEN: controlToken must be 16 to 256 characters")]);
    const path = secretFile("unfit", short);
    const fromFile = await run(["clock", "--control-token-file", path]);
    expect([fromFile.code, fromFile.stderr]).toEqual([2, expect.stringContaining(`--control-token-file ${path}: controlToken must be 16 to 256 characters`)]);
    for (const refused of [fromEnvironment, fromFile]) expect(refused.stdout + refused.stderr).not.toContain(short);
  });
});

describe("the keys the commands send", () => {
  let mock: RunningMock;
  beforeAll(async () => {
    mock = await start();
  });
  afterAll(() => mock.close());

  const remaining = async (credential: string) =>
    (await call(mock, operations.shortvideoProfile.path, { username: "creator" }, { key: credential })).body.meta.credits_remaining as number;

  it("balance takes the key from $SCRAPER_API_KEY or a file of mode 0600, and the credits from --credits", async () => {
    const fromEnvironment = freshKey("argv_env");
    const set = await run(["balance", "--credits", "7", "--url", mock.url], { SCRAPER_API_KEY: fromEnvironment });
    expect([set.code, set.stdout], set.stderr).toEqual([0, "balance: 7 credits\n"]);
    expect(await remaining(fromEnvironment)).toBe(6);

    const fromFile = freshKey("argv_file");
    const path = secretFile("key", fromFile);
    // The file wins over the environment.
    const setFromFile = await run(["balance", "--credits", "4", "--key-file", path, "--url", mock.url], { SCRAPER_API_KEY: fromEnvironment });
    expect(setFromFile.code, setFromFile.stderr).toBe(0);
    expect(await remaining(fromFile)).toBe(3);
    expect(await remaining(fromEnvironment)).toBe(5);
  });

  it("reset forgets the state of the key in $SCRAPER_API_KEY (--scraper-key), or of the credential in a file", async () => {
    const [one, two] = [freshKey("argv_reset"), freshKey("argv_reset")];
    await mock.setBalance(one, 5);
    await mock.setBalance(two, 5);
    const fromEnvironment = await run(["reset", "--scraper-key", "--url", mock.url], { SCRAPER_API_KEY: one });
    expect([fromEnvironment.code, fromEnvironment.stdout], fromEnvironment.stderr).toEqual([0, "reset: that credential's state\n"]);
    expect(await remaining(one)).toBe(999_999);
    expect(await remaining(two)).toBe(4);
    const fromFile = await run(["reset", "--credential-file", secretFile("credential", two), "--url", mock.url]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(await remaining(two)).toBe(999_999);
  });

  it("are refused on the command line, saying where they go now, without echoing them", async () => {
    const cases: Array<[string[], string]> = [
      [["balance", key, "7"], "balance takes no key on the command line, where every user of this machine can read it: set $SCRAPER_API_KEY, or pass --key-file <path> (a file of mode 0600); the credits go in --credits <n>."],
      [["balance", key, "--credits", "7"], "balance takes no key on the command line"],
      [["reset", "--credential", key], "reset --credential takes no credential on the command line, where every user of this machine can read it: pass --credential-file <path> (a file of mode 0600), or --scraper-key for the key in $SCRAPER_API_KEY."],
      [[`reset`, `--credential=${key}`], "reset --credential takes no credential on the command line"],
      [["reset", key], "reset takes no credential on the command line"],
      [["reset", "--scraper-key", key], "reset takes no credential on the command line"],
    ];
    for (const [args, message] of cases) {
      const refused = await run([...args, "--url", mock.url], { SCRAPER_API_KEY: key });
      expect([refused.code, refused.stderr], args.join(" ")).toEqual([2, expect.stringContaining(message)]);
      expect(refused.stdout + refused.stderr).not.toContain(key);
    }
    // Nothing was sent: the key's balance was not set to 7.
    expect(await remaining(key)).toBe(999_999);
  });

  it("say what is missing, naming the flag or variable, with exit status 2", async () => {
    const noKey = await run(["balance", "--credits", "7", "--url", mock.url]);
    expect([noKey.code, noKey.stderr]).toEqual([2, expect.stringContaining("balance needs a scraper key: set $SCRAPER_API_KEY, or pass --key-file <path>")]);
    const noCredits = await run(["balance", "--url", mock.url], { SCRAPER_API_KEY: key });
    expect([noCredits.code, noCredits.stderr]).toEqual([2, expect.stringContaining("balance needs --credits <n>")]);
    const noVariable = await run(["reset", "--scraper-key", "--url", mock.url]);
    expect([noVariable.code, noVariable.stderr]).toEqual([2, expect.stringContaining("reset --scraper-key reads the key in $SCRAPER_API_KEY, which is not set.")]);
    const open = await run(["balance", "--credits", "1", "--key-file", secretFile("open-key", key, 0o644), "--url", mock.url]);
    expect([open.code, open.stderr]).toEqual([2, expect.stringContaining("has mode 0644")]);
    expect(open.stderr).not.toContain(key);
  });
});

it("a command holds no key on its command line while it sends it", async () => {
  // A control API that holds the call until the command's command line has been read.
  let received: (request: { body: string }) => void;
  const arrived = new Promise<{ body: string }>((resolve) => {
    received = resolve;
  });
  let answer: () => void = () => {};
  const held = createServer((request: IncomingMessage, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk));
    request.on("end", () => {
      answer = () => response.writeHead(200, { "content-type": "application/json" }).end("{}");
      received({ body });
    });
  });
  held.listen(0, "127.0.0.1");
  await once(held, "listening");
  try {
    const origin = `http://127.0.0.1:${(held.address() as { port: number }).port}`;
    const child = spawn(process.execPath, [bin, "balance", "--credits", "9", "--url", origin, "--control-token-file", secretFile("held-token", token)], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...clean, SCRAPER_API_KEY: key },
    });
    const exited = once(child, "exit");
    const { body } = await arrived;
    expect(JSON.parse(body)).toEqual({ key, credits: 9 });
    const line = commandLine(child.pid as number);
    expect(line).toContain("balance --credits 9");
    expect(line).not.toContain(key);
    expect(line).not.toContain(token);
    answer();
    expect((await exited)[0]).toBe(0);
  } finally {
    held.closeAllConnections();
    held.close();
  }
});

describe("startMock()'s handle", () => {
  it.each([
    ["given", { controlToken: token }],
    ["made beyond loopback", { host: "0.0.0.0" }],
  ])("shows no control token %s to util.inspect, hidden fields and getters included, nor to JSON", async (_case, options) => {
    const mock = await start(options);
    try {
      const own = mock.controlToken as string;
      expect(own).toMatch(/^[\w-]{32,43}$/);
      for (const getters of [false, true]) expect(inspect(mock, { showHidden: true, depth: null, getters })).not.toContain(own);
      expect(inspect(mock)).not.toContain(own);
      expect(JSON.stringify(mock)).not.toContain(own);
      expect(JSON.stringify({ ...mock })).not.toContain(own);
      // The handle still works as one.
      expect((await connectSandbox(mock.url, { token: own }).clock()).advancedSeconds).toBe(0);
      expect(inspect(mock)).toContain(mock.url);
    } finally {
      await mock.close();
    }
  });
});
