// Every outcome the reference lists for a scraper call (section 7.1).
const REQUIRED = ['200', '400', '401', '402', '404', '413', '429', '500', '502', '504', 'default'];

/**
 * Every scraper operation documents each response the service can give.
 * Option `notFoundExempt`: operationIds without a 404 (default: `shortvideoRegions`, which has nothing to not find).
 * @type {import('../types.js').Rule}
 */
export default function scraperResponses({ notFoundExempt = ['shortvideoRegions'] }) {
  const exempt = /** @type {string[]} */ (notFoundExempt);
  return {
    Operation: {
      enter(operation, ctx) {
        if (!operation) return;
        const required = exempt.includes(operation.operationId) ? REQUIRED.filter((status) => status !== '404') : REQUIRED;
        const missing = required.filter((status) => !(status in (operation.responses ?? {})));
        if (missing.length > 0) {
          ctx.report({
            message: `Operation \`${operation.operationId}\` must declare responses ${missing.join(', ')}.`,
            location: ctx.location.child('responses'),
          });
        }
      },
    },
  };
}
