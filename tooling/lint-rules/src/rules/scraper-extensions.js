import { checkExtensions } from '../extensions.js';
import { reportOnce } from '../report-once.js';
import { resolveFrom } from '../resolve-from.js';

/**
 * Whether a request schema declares property `name`, itself or in an allOf part (parts every body must match).
 * @param {import('../types.js').Context} ctx
 * @param {unknown} schema maybe a `$ref`
 * @param {string} file the file `schema` sits in
 * @param {string} name
 * @returns {boolean}
 */
function declares(ctx, schema, file, name) {
  const { node, file: here } = resolveFrom(ctx, schema, file);
  if (!node) return false;
  return name in (node.properties ?? {}) || (node.allOf ?? []).some((/** @type {unknown} */ part) => declares(ctx, part, here, name));
}

/**
 * The operation extensions of spec/extensions.md, each mapped to whether this operation must have it. The operationId
 * stands for the path, which house/scraper-operation-id ties it to: `<platform>Posts` is `/scrape/<platform>/posts`.
 * - x-typical-duration-seconds: normalized operations, i.e. those without a `Focused: …` tag.
 * - x-paging: operations whose 200 `data` is a page, i.e. the normalized posts listings (a single-page one too)
 *   and every operation whose request schema declares `cursor`, the field a walk continues with.
 * - x-enrichment: single-post operations, `/scrape/<platform>/post`.
 * @param {import('../types.js').Node} operation
 * @param {import('../types.js').Context} ctx
 */
function operationExtensions(operation, ctx) {
  const id = String(operation.operationId);
  const body = resolveFrom(ctx, operation.requestBody, ctx.location.source.absoluteRef);
  const contents = Object.values(body.node?.content ?? {});
  return {
    'x-credits': true,
    'x-timeout-seconds': true,
    'x-unknown-fields': true,
    'x-typical-duration-seconds': !(operation.tags ?? []).some((/** @type {unknown} */ tag) => String(tag).startsWith('Focused:')),
    'x-paging': /^[a-z]+Posts$/.test(id) || contents.some((content) => declares(ctx, content?.schema, body.file, 'cursor')),
    'x-enrichment': /^[a-z]+Post$/.test(id),
  };
}

/**
 * Scraper operations and responses carry the vendor extensions codegen turns into the operation table.
 * @type {import('../types.js').Rule}
 */
export default function scraperExtensions() {
  const report = reportOnce();
  return {
    Operation: {
      enter(operation, ctx) {
        if (!operation) return;
        checkExtensions(ctx, operation, operationExtensions(operation, ctx), { owner: `Operation \`${operation.operationId}\`` });
      },
      // Nested so that a shared response is checked under every status it is used for.
      Response: {
        enter(response, ctx) {
          const owner = `Response ${ctx.key}`;
          checkExtensions(ctx, response ?? {}, { 'x-billing': true }, { owner, report });
          // `by-code` defers to x-error-codes, which only the catch-all `default` needs.
          if (ctx.key !== 'default' && response?.['x-billing'] === 'by-code') {
            report(ctx, { message: `${owner} must not be billed by-code: only default is.`, location: ctx.location.child('x-billing') });
          }
        },
      },
    },
  };
}
