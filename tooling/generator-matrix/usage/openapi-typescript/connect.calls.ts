// The connect description shows no operation: its client is the conventions alone, and it must still compile.
import createClient from "openapi-fetch";
import type { paths } from "../../generated/openapi-typescript/connect/index.ts";

export const connect = createClient<paths>({ baseUrl: "https://connect.example.test/api/embed", headers: { "x-api-key": "sk_test_usage" } });
