import { Ajv } from 'ajv';
import { reportOnce } from '../report-once.js';

const integer = { type: 'integer' };
/** @param {Record<string, object>} properties @param {string[]} required */
const object = (properties, required) => ({ type: 'object', properties, required, additionalProperties: false });

// The operation extensions and their shapes, as spec/extensions.md documents them.
const SHAPES = {
  'x-credits': object({ standard: { type: 'integer', minimum: 0 }, accountRate: { type: 'boolean' } }, ['standard', 'accountRate']),
  'x-timeout-seconds': { type: 'integer', minimum: 1 },
  'x-unknown-fields': { enum: ['ignore', 'reject'] },
  'x-typical-duration-seconds': object({ min: integer, max: integer }, ['min', 'max']),
  'x-paging': object(
    {
      mode: { enum: ['cursor', 'single-page'] },
      request: { type: 'string' },
      response: { type: 'string' },
      hasMore: { type: 'string' },
      start: { type: 'string' },
      pageSize: object({ min: integer, max: integer, exact: { type: 'boolean' } }, ['max', 'exact']),
    },
    ['mode'],
  ),
  'x-enrichment': object({ transcript: { type: 'boolean' }, comments: { type: 'boolean' }, commentCap: integer }, ['transcript', 'comments']),
};
const REQUIRED = ['x-credits', 'x-timeout-seconds', 'x-unknown-fields'];
const BILLING = ['billed', 'free', 'refunded'];

const ajv = new Ajv({ allErrors: true });
const validators = Object.entries(SHAPES).map(([name, shape]) => /** @type {const} */ ([name, ajv.compile(shape)]));

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
        for (const [name, validate] of validators) {
          if (operation[name] === undefined) {
            if (REQUIRED.includes(name)) {
              ctx.report({ message: `Operation \`${operation.operationId}\` must have ${name}.`, location: ctx.location.child(name) });
            }
          } else if (!validate(operation[name])) {
            const problems = (validate.errors ?? []).map(
              ({ instancePath, message, params }) =>
                `${name}${instancePath} ${message}${params.allowedValues ? ` (${params.allowedValues.join(', ')})` : ''}`,
            );
            ctx.report({
              message: `Operation \`${operation.operationId}\`: ${problems.join('; ')}.`,
              location: ctx.location.child(name),
            });
          }
        }
      },
      // Nested so that a shared response is checked under every status it is used for.
      Response: {
        enter(response, ctx) {
          const allowed = ctx.key === 'default' ? [...BILLING, 'by-code'] : BILLING;
          if (!allowed.includes(response?.['x-billing'])) {
            report(ctx, {
              message: `Response ${ctx.key} must have x-billing: ${allowed.join(' | ')}.`,
              location: ctx.location.child('x-billing'),
            });
          }
        },
      },
    },
  };
}
