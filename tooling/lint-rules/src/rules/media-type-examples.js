/**
 * @param {(key: string | number) => string} owner names what holds the content, for the message
 * @returns {import('../types.js').Visitor}
 */
function contentHasExamples(owner) {
  return {
    enter(node, ctx) {
      for (const [mediaType, content] of Object.entries(node?.content ?? {})) {
        if (content?.example === undefined && Object.keys(content?.examples ?? {}).length === 0) {
          ctx.report({
            message: `Media type ${mediaType} of ${owner(ctx.key)} must have an \`example\` or non-empty \`examples\`.`,
            location: ctx.location.child(['content', mediaType]),
          });
        }
      }
    },
  };
}

/**
 * Every response and request body shows an example per media type: Prism serves them and the docs render them.
 * @type {import('../types.js').Rule}
 */
export default function mediaTypeExamples() {
  return {
    Response: contentHasExamples((key) => `response ${key}`),
    RequestBody: contentHasExamples(() => 'the request body'),
  };
}
