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
        if (typeof gap !== 'string' || gap.trim() === '') {
          ctx.report({
            message: 'x-not-shown must be a sentence naming what the reference does not show.',
            location: ctx.location.child('x-not-shown'),
          });
        }
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
