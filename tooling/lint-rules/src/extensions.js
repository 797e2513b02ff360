import { Ajv } from 'ajv';

const integer = { type: 'integer' };
const positive = { type: 'integer', minimum: 1 };
const boolean = { type: 'boolean' };
const string = { type: 'string' };
const text = { type: 'string', minLength: 1 };
// `$data` reads the sibling `min`; without one, the bound does not apply.
const atLeastMin = { type: 'integer', minimum: { $data: '1/min' } };
/** @param {unknown[]} values */
const nullable = (values) => ({ enum: [...values, null] });
/** @param {Record<string, object>} properties @param {string[]} [required] all of them unless given */
const object = (properties, required = Object.keys(properties)) => ({ type: 'object', properties, required, additionalProperties: false });

const BILLING = ['billed', 'free', 'refunded'];
const ERROR_CODE = object({
  status: { anyOf: [{ type: 'integer', minimum: 100, maximum: 599 }, nullable(['5XX'])] },
  billing: nullable(BILLING),
  retry: nullable(['backoff', 'retry-after', 'never']),
});

/**
 * The value of every extension in spec/extensions.md, one JSON Schema each, here only: rules decide where an
 * extension is required and `checkExtensions` holds what is there to its shape. A function builds the shape from
 * the node that carries the extension.
 */
const SHAPES = {
  'x-request-body-limit': object({ maxBytes: positive }),
  'x-rate-limit': object({ requestsPerMinute: positive, burstSeconds: positive, refill: { const: 'continuous' }, scope: text }),
  'x-credits': object({ standard: { type: 'integer', minimum: 0 }, accountRate: boolean }),
  'x-timeout-seconds': positive,
  'x-typical-duration-seconds': object({ min: integer, max: atLeastMin }),
  'x-paging': object(
    {
      mode: { enum: ['cursor', 'single-page'] },
      items: string,
      request: string,
      response: string,
      hasMore: string,
      start: string,
      pageSize: object({ min: integer, max: atLeastMin, exact: boolean }, ['max', 'exact']),
    },
    ['mode', 'items'],
  ),
  'x-enrichment': object({ transcript: boolean, comments: boolean, commentCap: integer }, ['transcript', 'comments']),
  'x-unknown-fields': { enum: ['ignore', 'reject'] },
  // Which responses may be `by-code` depends on the status, so house/scraper-extensions checks that.
  'x-billing': { enum: [...BILLING, 'by-code'] },
  'x-key-prefix': text,
  'x-rejected-key-prefixes': { type: 'object', propertyNames: text, additionalProperties: text },
  // Exactly one entry per code of the schema's enum.
  'x-error-codes': (/** @type {import('./types.js').Node} */ schema) => {
    const codes = Array.isArray(schema.enum) ? schema.enum.map(String) : [];
    return object(Object.fromEntries(codes.map((code) => [code, ERROR_CODE])));
  },
  // Every wait at most the cap: with an increasing schedule, that is the last one.
  'x-retry-backoff': object({
    scheduleSeconds: { type: 'array', minItems: 1, increasing: true, items: { type: 'integer', maximum: { $data: '2/capSeconds' } } },
    capSeconds: integer,
    jitter: boolean,
  }),
  'x-not-shown': { type: 'string', pattern: '\\S' },
  'x-idempotency': { enum: ['required', 'recommended', 'optional'] },
  'x-idempotency-retention-seconds': positive,
};

const ajv = new Ajv({ allErrors: true, $data: true });
ajv.addKeyword({
  keyword: 'increasing',
  type: 'array',
  schemaType: 'boolean',
  error: { message: 'must be strictly increasing' },
  validate: (/** @type {boolean} */ on, /** @type {number[]} */ items) => !on || items.every((item, i) => i === 0 || item > (items[i - 1] ?? item)),
});

/**
 * Reports each extension of `extensions` (name → whether `node` must have it) that `node` lacks although it must,
 * or whose value does not have its shape.
 * @param {import('./types.js').Context} ctx the context of `node`
 * @param {import('./types.js').Node} node
 * @param {Partial<Record<keyof typeof SHAPES, boolean>>} extensions
 * @param {{ owner?: string, report?: (ctx: import('./types.js').Context, problem: { message: string, location: import('./types.js').Location }) => void }} [options]
 *   `owner` names the node at the start of each message; `report` replaces `ctx.report`, for instance with `reportOnce()`.
 */
export function checkExtensions(ctx, node, extensions, { owner, report = (c, problem) => c.report(problem) } = {}) {
  for (const [name, required] of Object.entries(extensions)) {
    const location = ctx.location.child(name);
    if (node[name] === undefined) {
      if (required) report(ctx, { message: `${owner ?? 'This node'} must have ${name}.`, location });
      continue;
    }
    const shape = SHAPES[/** @type {keyof typeof SHAPES} */ (name)];
    // ajv caches compiled schemas by object, so only the shapes built per node are compiled again.
    const validate = ajv.compile(typeof shape === 'function' ? shape(node) : shape);
    if (validate(node[name])) continue;
    const problems = (validate.errors ?? []).map(({ instancePath, message, params }) => {
      const detail = params.allowedValues ?? params.allowedValue ?? params.additionalProperty;
      return `${name}${instancePath} ${message}${detail === undefined ? '' : ` (${[detail].flat().map(String).join(', ')})`}`;
    });
    report(ctx, { message: `${owner ? `${owner}: ` : ''}${problems.join('; ')}.`, location });
  }
}
