const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
// Only the shape that yields an id; whether the platform is known is rule/scraper-path's job.
const SCRAPER_PATH = /^\/scrape\/([a-z]+\/[a-z-]+)$/;

/**
 * A scraper operationId is `<platform><Resource>`, derived from its path:
 * `/scrape/shortvideo/search-suggestions` → `shortvideoSearchSuggestions`.
 * @type {import('../types.js').Rule}
 */
export default function scraperOperationId() {
  return {
    Paths: {
      PathItem: {
        enter(pathItem, ctx) {
          const path = String(ctx.key);
          const match = SCRAPER_PATH.exec(path);
          if (!match?.[1]) return;
          const expected = match[1].replace(/[/-]([a-z])/g, (_, letter) => letter.toUpperCase());
          for (const method of METHODS) {
            const operation = pathItem?.[method];
            if (operation && operation.operationId !== expected) {
              ctx.report({
                message: `${method.toUpperCase()} ${path} must have operationId \`${expected}\`, found \`${operation.operationId ?? 'none'}\`.`,
                location: ctx.location.child([method, 'operationId']),
              });
            }
          }
        },
      },
    },
  };
}
