import { createInstance, getHttpOperationsFromSpec, JSONSchemaFaker } from "../prism.js";

// Prism, in process: it routes nothing here (the surface has already found the operation) but negotiates the documented
// response, serves its example (static mode) or generates one from the schema (dynamic mode), and honours what the
// caller asked for with `Prefer` (code, example, dynamic).

export type PrismOperation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/** How Prism should pick the response: Prism's own per-request mock options. */
export interface Choice {
  code?: number | undefined;
  exampleKey?: string | undefined;
  dynamic: boolean;
  seed?: string | undefined;
}

export type EngineAnswer =
  | { ok: true; status: number; contentType: string; body: unknown }
  /** Prism could not satisfy the choice (an unknown example name, say): its explanation. */
  | { ok: false; detail: string };

export interface Engine {
  readonly operations: ReadonlyMap<string, PrismOperation>;
  answer(operation: PrismOperation, request: { headers: Record<string, string>; body: unknown }, choice: Choice): Promise<EngineAnswer>;
}

const ignore = () => {};
const silent = { info: ignore, debug: ignore, warn: ignore, error: ignore, success: ignore, trace: ignore, fatal: ignore, child: () => silent };

/**
 * Dynamic answers without invented extra properties. Prism's CLI exposes this json-schema-faker option as
 * `--json-schema-faker-fillProperties`; in process it is set on the json-schema-faker instance Prism itself loads.
 */
function disableFillProperties(): void {
  JSONSchemaFaker.option({ fillProperties: false });
}

/** Loads a bundled description (a path or the parsed document) into Prism. */
export async function createEngine(description: string | object): Promise<Engine> {
  const list = await getHttpOperationsFromSpec(description);
  disableFillProperties();
  const prism = createInstance(
    { mock: { dynamic: false }, validateRequest: false, validateResponse: false, checkSecurity: false, errors: false, upstreamProxy: undefined, isProxy: false },
    { logger: silent as unknown as Parameters<typeof createInstance>[1]["logger"] },
  );
  return {
    operations: new Map(list.map((operation) => [operation.iid ?? operation.id, operation])),
    async answer(operation, request, choice) {
      const method = operation.method as "post";
      const input = { method, url: { path: operation.path }, headers: request.headers, body: request.body };
      // A fresh `mock` object per request: Prism writes the negotiated media types into it.
      const result = await prism.request(input, [operation], { mock: { ...choice } } as Parameters<typeof prism.request>[2])();
      if (result._tag === "Left") return { ok: false, detail: (result.left as { detail?: string }).detail || result.left.message };
      const { statusCode, headers = {}, body } = result.right.output;
      const contentType = Object.entries(headers).find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? "application/json";
      return { ok: true, status: statusCode, contentType: String(contentType), body };
    },
  };
}
