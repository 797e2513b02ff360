import { createRequire } from "node:module";
import type { SandboxServices, Surface } from "./http.js";
import { createConnectSurface } from "./connect/surface.js";
import { createPlatformSurface } from "./platform/surface.js";
import { createLegacySurface } from "./platform-legacy/surface.js";
import { createScraperSurface } from "./scraper/surface.js";

/** What every surface is started with. */
export interface SurfaceOptions {
  seed: string;
  dynamic: boolean;
  credits: number;
  /** Overrides the surface's documented default rate limit. */
  requestsPerMinute: number | undefined;
  timeScale: number;
  /** The control plane's clock and faults. */
  sandbox: SandboxServices;
}

/**
 * The surfaces of the shared host. A surface claims `namespace` below its description's base path; the longest claim
 * wins, so the scraper's `/api/v1/scrape/` stays its own when the key-based platform API takes the rest of `/api/v1`.
 * Adding a surface (`/api/v1`, `/api/oauth/v1`, `/api/embed`) is one entry here and its `create`.
 */
export interface SurfaceDefinition {
  name: string;
  namespace: string;
  /** The bundled description the surface serves. */
  description: string;
  create(description: string, options: SurfaceOptions): Promise<Surface>;
}

const resolve = createRequire(import.meta.url).resolve;

export const surfaces: readonly SurfaceDefinition[] = [
  {
    name: "scraper",
    namespace: "/scrape/",
    description: resolve("@content-scraper/spec/scraper.json"),
    create: (description, options) => createScraperSurface({ description, ...options }),
  },
  {
    // The rest of `/api/v1`: the scraper's longer `/api/v1/scrape/` claim wins.
    name: "platformLegacy",
    namespace: "/",
    description: resolve("@content-scraper/spec/platform-legacy.json"),
    create: (description, options) => createLegacySurface({ description, ...options }),
  },
  {
    name: "platform",
    namespace: "/",
    description: resolve("@content-scraper/spec/platform.json"),
    create: (description, options) => createPlatformSurface({ description, ...options }),
  },
  {
    name: "connect",
    namespace: "/",
    description: resolve("@content-scraper/spec/connect.json"),
    create: async (_description, options) => createConnectSurface(options),
  },
];
