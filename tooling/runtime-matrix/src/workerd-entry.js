// The script workerd runs (through miniflare), bundled by esbuild: a request carries the targets, the answer the results.
import { conformance } from "./conformance.js";

export default {
  async fetch(/** @type {Request} */ request) {
    return Response.json(await conformance(await request.json()));
  },
};
