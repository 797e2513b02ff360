// Node, Deno and Bun run this from a folder where the packages were installed: `<runtime> node-entry.mjs '<targets JSON>'`.
// It prints the conformance results as JSON.
import { conformance } from "./conformance.js";

const argv = typeof Deno === "undefined" ? process.argv.slice(2) : Deno.args;
const results = await conformance(JSON.parse(argv[0]));
console.log(JSON.stringify(results));
