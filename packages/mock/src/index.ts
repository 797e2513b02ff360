import { readFile } from "node:fs/promises";
import { type Gateway, type Mount, startGateway } from "./gateway.js";
import { type SurfaceOptions, surfaces } from "./mounts.js";

export { magicInputs } from "./scraper/magic.js";
export { platformTokens } from "./platform/surface.js";
export { legacyKeys } from "./platform-legacy/surface.js";
export { sandboxKeys } from "./scraper/keys.js";

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

export interface RunningMock extends Gateway {
  /** Each surface's base URL, e.g. `scraper: http://127.0.0.1:4010/api/v1`. */
  baseUrls: Record<"scraper" | "platform" | "platformLegacy" | "connect", string> & Record<string, string>;
}

/** The path of a description's first server URL, its variables at their defaults (`https://{host}/api/v1` → `/api/v1`). */
async function basePathOf(description: string): Promise<string> {
  const document = JSON.parse(await readFile(description, "utf8")) as { servers?: Array<{ url: string }> };
  const url = document.servers?.[0]?.url ?? "/";
  return new URL(url.replace(/\{[^}]*\}/g, "sandbox"), "http://sandbox").pathname.replace(/\/$/, "");
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
  const mounts: Mount[] = await Promise.all(
    surfaces.map(async (definition) => ({
      name: definition.name,
      basePath: await basePathOf(definition.description),
      namespace: definition.namespace,
      surface: await definition.create(definition.description, settings),
    })),
  );
  const gateway = await startGateway(mounts, options.port ?? 4010, options.host ?? "127.0.0.1");
  const baseUrls = Object.fromEntries(mounts.map((mount) => [mount.name, gateway.url + mount.basePath])) as RunningMock["baseUrls"];
  return { ...gateway, baseUrls };
}
