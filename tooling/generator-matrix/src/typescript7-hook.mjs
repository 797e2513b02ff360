// The resolve hook of `on-typescript7.mjs`, on Node's loader thread (where `import.meta.resolve` is not available on
// Node 20: the main thread resolves TypeScript 7 and hands it over).
let typescript7 = "";

/** @param {{ typescript7: string }} data */
export function initialize(data) {
  typescript7 = data.typescript7;
}

/** @type {import("node:module").ResolveHook} */
export const resolve = (specifier, context, next) => next(specifier === "typescript" ? typescript7 : specifier, context);
