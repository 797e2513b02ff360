// A child process's side of a memory case: `node measure.js <subject index> <origin> <maxResponseBytes | default> <timeoutMs>`. It
// opens the subject's client on the origin (with the client's own default limit for `default`), makes one call to warm up (the server answers it with a success: fetch, zlib and
// the client are loaded), then one call the server answers with the case's body, and prints, as JSON, its RSS before
// that call, its peak RSS over its life (`process.resourceUsage().maxRSS`), and the error the call ended with.
import { subjects } from "./subjects.js";

const [index, origin, maxResponseBytes, timeout] = process.argv.slice(2);
const subject = subjects[Number(index)];
if (!subject || !origin || !timeout) throw new Error("usage: measure.js <subject index> <origin> <maxResponseBytes | default> <timeoutMs>");
const timeoutMs = Number(timeout);
const call = subject.open(origin, maxResponseBytes === "default" ? { timeoutMs } : { maxResponseBytes: Number(maxResponseBytes), timeoutMs });
await call();
const before = process.memoryUsage().rss;
/** @type {{ name: string, message: string } | undefined} */
let error;
try {
  await call();
} catch (caught) {
  error = { name: /** @type {Error} */ (caught).name, message: /** @type {Error} */ (caught).message };
}
process.stdout.write(JSON.stringify({ before, peak: process.resourceUsage().maxRSS * 1024, error }));
