import openapiTS, { astToString } from "openapi-typescript";
import type { OpenApiDocument } from "./openapi-json-schema.js";

/** TypeScript types for a bundled description, by openapi-typescript (`paths`, `operations`, `components`). */
export async function generateTypes(document: OpenApiDocument): Promise<string> {
  // openapi-typescript takes the document as a JSON string; a plain object would be walked in place and changed.
  // `emptyObjectsUnknown`: an open object whose fields are not shown is `Record<string, unknown>`, not `Record<string, never>`.
  const ast = await openapiTS(JSON.stringify(document), { exportType: true, emptyObjectsUnknown: true });
  return astToString(ast);
}
