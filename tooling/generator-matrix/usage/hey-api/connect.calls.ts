// The connect description shows no operation: its client is the conventions alone, and it must still compile.
import { client } from "../../generated/hey-api/connect/client.gen.ts";

client.setConfig({ baseUrl: "https://connect.example.test/api/embed", headers: { "x-api-key": "sk_test_usage" } });
