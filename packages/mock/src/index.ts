import { readFile } from "node:fs/promises";
import { inspect } from "node:util";
import { SandboxClock } from "./control/clock.js";
import { Faults } from "./control/faults.js";
import { checkControlToken, newControlToken } from "./control/guard.js";
import { RequestLog } from "./control/log.js";
import { ControlPlane, type SandboxControl } from "./control/plane.js";
import { controlApi } from "./control/routes.js";
import { type Gateway, type Mount, startGateway } from "./gateway.js";
import { type SurfaceOptions, surfaces } from "./mounts.js";
import { serverPath } from "./surface-kit.js";

export { type ConnectOptions, connectSandbox } from "./control/client.js";
export type { PendingFault } from "./control/faults.js";
export type { LogEntry, LogFilter } from "./control/log.js";
export { type ClockState, type FaultSpec, type SandboxControl, SandboxControlError } from "./control/plane.js";
export { controlPath } from "./control/routes.js";
export { magicInputs } from "./scraper/magic.js";
export { connectKeySuffixes } from "./connect/surface.js";
export { platformIds, platformTokens } from "./platform/surface.js";
export { legacyKeys, legacyNotFoundId } from "./platform-legacy/surface.js";
export { sandboxKeys } from "./scraper/keys.js";

/** The options of `startMock`, each with the same meaning as the command line's flag of that name. */
export interface MockOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /**
   * Default 127.0.0.1. Beyond loopback (`0.0.0.0`, a LAN address), other machines can call the sandbox, and its control
   * API wants `controlToken`.
   */
  host?: string;
  /**
   * The token the control API wants (`Authorization: Bearer <token>`; `connectSandbox(url, { token })`), 16 to 256
   * characters. Given, it is wanted wherever the sandbox listens; not given, the sandbox makes one when it listens
   * beyond loopback (`controlToken` on the handle), and wants none on loopback.
   */
  controlToken?: string;
  /** Seeds the catalogs and, in dynamic mode, the generated payloads. Default "sandbox". */
  seed?: string;
  /** Generate success payloads from the schemas (seeded) instead of serving the description's examples. */
  dynamic?: boolean;
  /** Starting credit balance of every key. Default 1 000 000. */
  credits?: number;
  /** Requests per minute per key; by default the description's default rate limit. */
  requestsPerMinute?: number;
  /** Multiplies simulated durations (the `slow` input); 0 answers at once. Default 1. */
  timeScale?: number;
}

/** A running sandbox: its addresses, `close()`, and the control functions (reset, clock, balances, log, faults). */
export interface RunningMock extends Gateway, SandboxControl {
  /** Each surface's base URL, e.g. `scraper: http://127.0.0.1:4010/api/v1`. */
  baseUrls: Record<"scraper" | "platform" | "platformLegacy" | "connect", string> & Record<string, string>;
  /**
   * The token the control API wants, if it wants one. A getter over a private field: `util.inspect` (hidden fields and
   * getters included) and JSON leave it out.
   */
  readonly controlToken: string | undefined;
}

type Servers = { servers?: Array<{ url: string }> };
type Description = Servers & { paths?: Record<string, Servers & Partial<Record<string, Servers>>> };
const methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Where a description is served: its base path (its first server's), and each operation with its own server (an
 * operation- or path-level `servers`, such as the discovery document's `https://{host}`) at that server's path, by the
 * literal part of its path.
 */
async function placesOf(description: string): Promise<{ basePath: string; elsewhere: Array<Pick<Mount, "basePath" | "namespace">> }> {
  const document = JSON.parse(await readFile(description, "utf8")) as Description;
  const elsewhere = new Map<string, Pick<Mount, "basePath" | "namespace">>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of methods) {
      const url = item[method] && (item[method].servers ?? item.servers)?.[0]?.url;
      const place = url === undefined ? undefined : { basePath: serverPath(url), namespace: path.split("{")[0] as string };
      if (place) elsewhere.set(place.basePath + place.namespace, place);
    }
  }
  return { basePath: serverPath(document.servers?.[0]?.url ?? "/"), elsewhere: [...elsewhere.values()] };
}

/**
 * What the handle is an instance of: it keeps the control token in a private field, which neither `util.inspect` nor
 * JSON reads, behind a getter on the prototype. Inspect lists a prototype's getters under `showHidden`, and calls them
 * under `getters: true`, so the handle inspects as its own fields alone: logged whole, it does not hand the token out
 * (only `customInspect: false` with `getters: true` calls the getter, as reading the property would).
 */
class RunningSandbox {
  readonly #controlToken: string | undefined;
  constructor(controlToken: string | undefined) {
    this.#controlToken = controlToken;
  }
  get controlToken(): string | undefined {
    return this.#controlToken;
  }
  [inspect.custom](): object {
    return { ...this };
  }
}

/** Starts the sandbox: one gateway for every surface of the shared host. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const given = options.controlToken === undefined ? undefined : checkControlToken(options.controlToken);
  const clock = new SandboxClock();
  const faults = new Faults();
  const log = new RequestLog();
  const settings: SurfaceOptions = {
    seed: options.seed ?? "sandbox",
    dynamic: options.dynamic ?? false,
    credits: options.credits ?? 1_000_000,
    requestsPerMinute: options.requestsPerMinute,
    timeScale: options.timeScale ?? 1,
    sandbox: { clock, faults },
  };
  const mounted: Array<{ main: Mount; elsewhere: Mount[] }> = await Promise.all(
    surfaces.map(async ({ name, namespace, description, create }) => {
      const [places, surface] = await Promise.all([placesOf(description), create(description, settings)]);
      return { main: { name, basePath: places.basePath, namespace, surface }, elsewhere: places.elsewhere.map((place) => ({ name, ...place, surface })) };
    }),
  );
  const mounts = mounted.flatMap(({ main, elsewhere }) => [main, ...elsewhere]);
  const plane = new ControlPlane(clock, log, faults, new Map(mounted.map(({ main }) => [main.name, main.surface])));
  let controlToken: string | undefined;
  const control = ({ names, port, beyondLoopback }: { names: ReadonlySet<string>; port: number; beyondLoopback: boolean }) => {
    controlToken = given ?? (beyondLoopback ? newControlToken() : undefined);
    return controlApi(plane, { names, port, token: controlToken });
  };
  const gateway = await startGateway(mounts, { port: options.port ?? 4010, host: options.host ?? "127.0.0.1", control, log, clock });
  const baseUrls = Object.fromEntries(mounted.map(({ main }) => [main.name, gateway.url + main.basePath])) as RunningMock["baseUrls"];
  const running: Omit<RunningMock, "controlToken"> = {
    ...gateway,
    baseUrls,
    reset: (credential) => plane.reset(credential),
    advance: (seconds) => plane.advance(seconds),
    clock: () => plane.clock(),
    setBalance: (key, credits) => plane.setBalance(key, credits),
    log: (filter) => plane.log(filter),
    inject: (fault) => plane.inject(fault),
    faults: () => plane.faults(),
  };
  return Object.assign(new RunningSandbox(controlToken), running);
}
