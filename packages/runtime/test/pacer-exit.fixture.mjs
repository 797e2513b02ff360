// A process whose calls wait for pacing and give up (one aborted, one past its deadline): it must exit at once, with no
// timer of the pacer left to hold it. Run by pacing.test.ts against the built runtime.
import { memoryRateLimitStore, Pacer } from "../dist/index.js";

const pacer = new Pacer(memoryRateLimitStore(), "k", { requestsPerMinute: 1, burstSeconds: 60 });
await pacer.wait();
const controller = new AbortController();
const aborted = pacer.wait(controller.signal).catch(() => "aborted");
const timedOut = pacer.wait(undefined, performance.now() + 50).catch(() => "timed out");
setTimeout(() => controller.abort(), 20);
console.log(`settled: ${(await Promise.all([aborted, timedOut])).join(", ")}`);
