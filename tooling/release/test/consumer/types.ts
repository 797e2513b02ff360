// Type-checked with tsc --noEmit against the installed tarballs' declarations, as a Node-only project does (module
// NodeNext, lib ES2023 without DOM, skipLibCheck off).
import { exitCodes, type Manifest, run as runCli } from "@content-scraper/cli";
import { createScraperClient, type ResponseValidator, type ScraperInputError } from "@content-scraper/client";
import { scraperApi } from "@content-scraper/client/api";
import { type FocusedClient, focusedClient } from "@content-scraper/client/focused";
import { callOperation } from "@content-scraper/client/operations";
import { validateResponses } from "@content-scraper/client/validate";
import { type ConnectClient, createConnectClient } from "@content-scraper/connect";
import { createScraperMcp, type ScraperMcp } from "@content-scraper/mcp";
import { type MockOptions, startMock } from "@content-scraper/mock";
import { createPlatformClient } from "@content-scraper/platform";
import type * as oauth from "@content-scraper/platform/oauth";
import { createRedisStores } from "@content-scraper/redis-store";
import { type CreditBudgetStore, type RateLimitStore, retryAfterMs } from "@content-scraper/runtime";
import { type ValidationResult, validateRequest } from "@content-scraper/validators";
import type { Request } from "@content-scraper/validators/scraper";

const body: Request<"shortvideoProfile"> = { username: "creator" };
const result: ValidationResult = validateRequest("shortvideoProfile", body);
const options: MockOptions = { port: 0 };
const connect: ConnectClient = createConnectClient({ apiKey: "sk_test_x", baseUrl: "http://localhost/api/embed" });
const wait: number | undefined = retryAfterMs(new Headers());
// Built lazily: the Redis stores are the runtime's store interfaces.
const stores = () => createRedisStores({ redis: "redis://127.0.0.1:6379", fallback: { workers: 8 } });
const shared: () => [RateLimitStore, CreditBudgetStore] = () => [stores().rateLimit, stores().budget];

export async function run(): Promise<string> {
  const mock = await startMock(options);
  const validator: ResponseValidator = validateResponses;
  const scraper = createScraperClient({ apiKey: "scrape_live_x", baseUrl: mock.baseUrls.scraper, validateResponses: validator });
  const { data } = await scraper.profile("shortvideo", "creator");
  const { data: raw } = await scraperApi(scraper).POST("/scrape/shortvideo/profile", { body: { username: "creator" } });
  const shortvideo: FocusedClient<"shortvideo"> = focusedClient(scraper, "shortvideo");
  const { data: regions } = await shortvideo.regions();
  const { data: byId } = await callOperation(scraper, "videositeProfile", { username: "creator" });
  const mcp: ScraperMcp = await createScraperMcp({ client: scraper.withBudget({ maxCredits: 5 }), allow: ["*Profile"] });
  await mock.close();
  const error: ScraperInputError | undefined = undefined;
  return JSON.stringify([data, raw?.data.username, regions.total, result, connect.environment, wait, error, typeof createPlatformClient, typeof ({} as typeof oauth), typeof shared, typeof runCli, exitCodes.stopped, ({} as Manifest).creditsCharged, byId.follower_count, mcp.tools.length]);
}
