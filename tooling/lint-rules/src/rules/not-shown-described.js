import { checkExtensions } from '../extensions.js';

/**
 * A gap marked `x-not-shown` names what is missing and says "not shown" in its description,
 * which the docs render as "not documented".
 * @type {import('../types.js').Rule}
 */
export default function notShownDescribed() {
  return {
    any: {
      enter(node, ctx) {
        const gap = node?.['x-not-shown'];
        if (!node || gap === undefined) return;
        checkExtensions(ctx, node, { 'x-not-shown': false });
        if (!/\bnot\s+shown\b/i.test(node.description ?? '')) {
          ctx.report({
            message: `A node with x-not-shown must have a description that says "not shown" (x-not-shown: ${JSON.stringify(gap)}).`,
            location: ctx.location.child('description'),
          });
        }
      },
    },
  };
}
