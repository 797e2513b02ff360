import { createRequire } from "node:module";
import prismHttp from "@stoplight/prism-http";

// Prism, the sandbox's engine. `pnpm build` replaces this module's output with a bundle of Prism and every module it
// loads (scripts/bundle-prism.mjs), so a partner's install carries none of Prism's dependency tree. Only
// `scraper/prism-calls.ts` loads it, when a call first needs it.

// json-schema-faker is loaded as Prism itself loads it (CommonJS, resolved from Prism's directory): one instance, whose
// options Prism's generator reads.
const prismRequire = createRequire(createRequire(import.meta.url).resolve("@stoplight/prism-http"));

export const createInstance: typeof prismHttp.createInstance = prismHttp.createInstance;
export const getHttpOperationsFromSpec: typeof prismHttp.getHttpOperationsFromSpec = prismHttp.getHttpOperationsFromSpec;
export const { JSONSchemaFaker } = prismRequire("json-schema-faker") as { JSONSchemaFaker: { option(options: object): void } };
