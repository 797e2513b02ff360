// Node, Deno and Bun run this from a folder where the packages were installed: `<runtime> node-entry.mjs '<targets JSON>'`.
// It prints the conformance results as JSON.
import { conformance } from "./conformance.js";

const deno = /** @type {{ Deno?: { args: string[] } }} */ (globalThis).Deno;
const argv = deno ? deno.args : process.argv.slice(2);
const results = await conformance(JSON.parse(argv[0] ?? "{}"));
console.log(JSON.stringify(results));
