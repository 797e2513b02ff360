/**
 * `ctx.resolve` that also gives the file the result sits in, which the `$ref`s inside it are relative to:
 * only a `$ref` moves to another file; an inline node sits where its parent does.
 * @param {import('./types.js').Context} ctx
 * @param {unknown} value maybe a `$ref`
 * @param {string} file the file `value` sits in
 */
export function resolveFrom(ctx, value, file) {
  const { node, location } = ctx.resolve(value, file);
  return { node, file: node === value ? file : (location?.source.absoluteRef ?? file) };
}
