// The script a Chromium page and a Chromium Web Worker run, bundled by esbuild: `runConformance(targets)` in a page, or
// a message with the targets in a worker, which answers with the results.
import { conformance } from "./conformance.js";

const scope = /** @type {any} */ (globalThis);
if (typeof scope.importScripts === "function") {
  scope.onmessage = async (/** @type {MessageEvent} */ event) => scope.postMessage(await conformance(event.data));
} else {
  scope.runConformance = conformance;
}
