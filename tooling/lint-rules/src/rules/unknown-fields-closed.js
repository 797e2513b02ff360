import { resolveFrom } from '../resolve-from.js';

/**
 * Whether a schema admits no unknown property: it sets `additionalProperties: false`, every oneOf/anyOf
 * alternative is closed, or one allOf part is (under draft-07 semantics, which Prism uses, that part alone
 * then admits nothing else). A part marked `x-not-shown` counts as closed: the gap is documented, not forgotten.
 * @param {import('../types.js').Context} ctx
 * @param {unknown} schema maybe a `$ref`
 * @param {string} file the file `schema` sits in, which its `$ref` is relative to
 * @returns {boolean}
 */
function isClosed(ctx, schema, file) {
  const { node, file: here } = resolveFrom(ctx, schema, file);
  if (!node) return false;
  if (node['x-not-shown'] !== undefined || node.additionalProperties === false) return true;
  const alternatives = [...(node.oneOf ?? []), ...(node.anyOf ?? [])];
  return (
    (alternatives.length > 0 && alternatives.every((branch) => isClosed(ctx, branch, here))) ||
    (node.allOf ?? []).some((/** @type {unknown} */ part) => isClosed(ctx, part, here))
  );
}

/**
 * An operation documented to reject unknown request fields (`x-unknown-fields: reject`) says so in its request schema.
 * @type {import('../types.js').Rule}
 */
export default function unknownFieldsClosed() {
  return {
    Operation: {
      RequestBody: {
        enter(body, ctx, { Operation: operation }) {
          if (operation?.['x-unknown-fields'] !== 'reject') return;
          for (const [mediaType, content] of Object.entries(body?.content ?? {})) {
            if (!isClosed(ctx, content?.schema, ctx.location.source.absoluteRef)) {
              ctx.report({
                message: `Operation \`${operation.operationId}\` rejects unknown fields, so its ${mediaType} request schema must set \`additionalProperties: false\` (in every oneOf/anyOf branch or in an allOf part) or carry x-not-shown.`,
                location: ctx.location.child(['content', mediaType, 'schema']),
              });
            }
          }
        },
      },
    },
  };
}
