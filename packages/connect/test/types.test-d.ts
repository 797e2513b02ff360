import { describe, expectTypeOf, it } from "vitest";
import { type ConnectApiError, type ConnectMeta, type ConnectRedirectError, createConnectClient, type Environment } from "../src/index.js";

describe("connect types", () => {
  it("environment is the union the description's x-key-environments gives", () => {
    expectTypeOf<Environment>().toEqualTypeOf<"production" | "sandbox">();
    const connect = createConnectClient({ apiKey: "sk_test_x", baseUrl: "https://h/api/embed" });
    expectTypeOf(connect.environment).toEqualTypeOf<Environment>();
    expectTypeOf<ConnectMeta["environment"]>().toEqualTypeOf<Environment>();
  });

  it("request is generic in its data", async () => {
    const connect = createConnectClient({ apiKey: "sk_test_x", baseUrl: "https://h/api/embed" });
    const { data } = await connect.request<{ id: string }>("GET", "/accounts/{id}", { pathParams: { id: "a" } });
    expectTypeOf(data).toEqualTypeOf<{ id: string } | undefined>();
    // @ts-expect-error apiKey is required
    createConnectClient({ baseUrl: "https://h/api/embed" });
  });

  it("takes maxRetryWaitMs and maxResponseBytes; a 429's error says whether to come back", () => {
    createConnectClient({ apiKey: "sk_test_x", baseUrl: "https://h/api/embed", maxRetryWaitMs: 0, maxResponseBytes: 1024 });
    expectTypeOf<ConnectApiError["retryable"]>().toEqualTypeOf<boolean>();
    expectTypeOf<ConnectRedirectError["refusal"]["fromOrigin"]>().toEqualTypeOf<string>();
  });
});
