import { describe, expectTypeOf, it } from "vitest";
import type { components } from "../src/generated/scraper.types.js";
import * as entry from "../src/index.js";
import { isRequest, isResponse, type OperationId, type Response, type Status } from "../src/scraper.js";

// Type tests: `tsc --noEmit` (the typecheck script) checks them; at run time they only exercise the guards.

type Schemas = components["schemas"];
type Responses = components["responses"];

describe("the guards narrow to the generated types", () => {
  const body: unknown = null;

  it("narrows a response by operationId and status, with the status's range or default where it has none", () => {
    if (isResponse("shortvideoProfile", 200, body)) expectTypeOf(body).toEqualTypeOf<Schemas["ProfileResponse"]>();
    if (isResponse("shortvideoProfile", "200", body)) expectTypeOf(body).toEqualTypeOf<Schemas["ProfileResponse"]>();
    if (isResponse("shortvideoPosts", 404, body)) expectTypeOf(body).toEqualTypeOf<Responses["ProfileNotFound"]["content"]["application/json"]>();
    if (isResponse("shortvideoPosts", 503, body)) expectTypeOf(body).toEqualTypeOf<Schemas["ErrorEnvelope"]>();
    if (isResponse("shortvideoPosts", "default", body)) expectTypeOf(body).toEqualTypeOf<Schemas["ErrorEnvelope"]>();
  });

  it("narrows to each documented media type, or the one given", () => {
    if (isResponse("shortvideoPosts", 504, body)) expectTypeOf(body).toEqualTypeOf<Schemas["RefundedErrorBody"] | string>();
    if (isResponse("shortvideoPosts", 504, body, { contentType: "text/plain" })) expectTypeOf(body).toEqualTypeOf<string>();
    if (isResponse("shortvideoPosts", 504, body, { contentType: "application/json" })) expectTypeOf(body).toEqualTypeOf<Schemas["RefundedErrorBody"]>();
  });

  it("narrows to any documented response for a status known only at run time", () => {
    const status = 200 as number;
    if (isResponse("shortvideoRegions", status, body)) expectTypeOf<Schemas["RegionListResponse"]>().toExtend<typeof body>();
  });

  it("narrows a request body, which is optional where the description says so", () => {
    if (isRequest("shortvideoProfile", body)) expectTypeOf(body).toEqualTypeOf<Schemas["ProfileRequest"]>();
    if (isRequest("shortvideoRegions", body)) expectTypeOf(body).toEqualTypeOf<Schemas["RegionsRequest"] | undefined>();
    if (entry.isRequest("shortvideoFavorites", body)) expectTypeOf(body).toEqualTypeOf<Schemas["CreatorRequest"]>();
  });

  it("names operationIds and statuses, and rejects others", () => {
    expectTypeOf<"shortvideoProfile">().toExtend<OperationId>();
    expectTypeOf<Status<"shortvideoProfile">>().toEqualTypeOf<
      200 | 400 | 401 | 402 | 404 | 413 | 429 | 500 | 502 | 504 | "default" | "200" | "400" | "401" | "402" | "404" | "413" | "429" | "500" | "502" | "504"
    >();
    expectTypeOf<Response<"shortvideoPosts", 502>>().toEqualTypeOf<Schemas["RefundedErrorBody"]>();
    // @ts-expect-error: an unknown operationId
    expectTypeOf<Response<"shortvideoProfil", 200>>();
  });

  it("rejects a typo in an operationId, or a status that is neither documented nor a number", () => {
    // Never called: these only have to fail to compile (at run time they throw).
    const typos = () => [
      // @ts-expect-error: an unknown operationId
      isResponse("shortvideoProfil", 200, body),
      // @ts-expect-error: an unknown operationId
      isRequest("shortvideoProfil", body),
      // @ts-expect-error: an unknown operationId, in the entry as well
      entry.validateResponse("shortvideoProfil", 200, body),
      // @ts-expect-error: not a documented status
      isResponse("shortvideoProfile", "ok", body),
    ];
    expectTypeOf(typos).toBeFunction();
  });
});
