import openapiTS, { astToString, NEVER } from "openapi-typescript";
import type { OpenApiDocument } from "./openapi-json-schema.js";

/** `{ not: {} }`: the descriptions' way to say "must not be present" (a boolean `false` schema trips other tools). */
const forbidsAnyValue = (schema: object) => Object.keys(schema).length === 1 && JSON.stringify((schema as { not?: unknown }).not) === "{}";

/** TypeScript types for a bundled description, by openapi-typescript (`paths`, `operations`, `components`). */
export async function generateTypes(document: OpenApiDocument): Promise<string> {
  // openapi-typescript takes the document as a JSON string; a plain object would be walked in place and changed.
  // `emptyObjectsUnknown`: an open object whose fields are not shown is `Record<string, unknown>`, not `Record<string, never>`.
  // `transform`: a property no value may take is `never`, as `false` would have been, instead of openapi-typescript's `unknown`.
  const ast = await openapiTS(JSON.stringify(document), {
    exportType: true,
    emptyObjectsUnknown: true,
    transform: (schema) => (typeof schema === "object" && forbidsAnyValue(schema) ? NEVER : undefined),
  });
  return astToString(ast);
}
