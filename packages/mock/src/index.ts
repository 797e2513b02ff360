import { readFile } from "node:fs/promises";
import { type Gateway, type Mount, startGateway } from "./gateway.js";
import { type SurfaceOptions, surfaces } from "./mounts.js";
import { serverPath } from "./surface-kit.js";

export { magicInputs } from "./scraper/magic.js";
export { platformTokens } from "./platform/surface.js";
export { legacyKeys } from "./platform-legacy/surface.js";
export { sandboxKeys } from "./scraper/keys.js";

/** The options of `startMock`, each with the same meaning as the command line's flag of that name. */
export interface MockOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
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

/** A running sandbox: its address, each surface's base URL, and `close()`. */
export interface RunningMock extends Gateway {
  /** Each surface's base URL, e.g. `scraper: http://127.0.0.1:4010/api/v1`. */
  baseUrls: Record<"scraper" | "platform" | "platformLegacy" | "connect", string> & Record<string, string>;
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

/** Starts the sandbox: one gateway for every surface of the shared host. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const settings: SurfaceOptions = {
    seed: options.seed ?? "sandbox",
    dynamic: options.dynamic ?? false,
    credits: options.credits ?? 1_000_000,
    requestsPerMinute: options.requestsPerMinute,
    timeScale: options.timeScale ?? 1,
  };
  const mounted: Array<{ main: Mount; elsewhere: Mount[] }> = await Promise.all(
    surfaces.map(async ({ name, namespace, description, create }) => {
      const [places, surface] = await Promise.all([placesOf(description), create(description, settings)]);
      return { main: { name, basePath: places.basePath, namespace, surface }, elsewhere: places.elsewhere.map((place) => ({ name, ...place, surface })) };
    }),
  );
  const mounts = mounted.flatMap(({ main, elsewhere }) => [main, ...elsewhere]);
  const gateway = await startGateway(mounts, options.port ?? 4010, options.host ?? "127.0.0.1");
  const baseUrls = Object.fromEntries(mounted.map(({ main }) => [main.name, gateway.url + main.basePath])) as RunningMock["baseUrls"];
  return { ...gateway, baseUrls };
}
