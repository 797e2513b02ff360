import { reportOnce } from '../report-once.js';

const CHARGED = 'X-Scraper-Credits-Charged';
const RATE_LIMIT = ['X-Scraper-RateLimit-Limit', 'X-Scraper-RateLimit-Remaining', 'X-Scraper-RateLimit-Reset'];

/**
 * The headers a scraper response must declare, and those of them that must be `required: true`.
 * Errors only need X-Scraper-Credits-Charged declared: the gateway's bare 504 may come without it.
 * @param {string} status
 */
function expectedHeaders(status) {
  if (status === '200') return { declared: [], required: [CHARGED, 'X-Scraper-Credits-Remaining', ...RATE_LIMIT] };
  if (status === '429') return { declared: [CHARGED], required: ['Retry-After', ...RATE_LIMIT] };
  if (/^[45]|^default$/.test(status)) return { declared: [CHARGED], required: [] };
  return { declared: [], required: [] };
}

/**
 * Scraper responses carry the billing and rate-limit headers the client reads into `meta`.
 * @type {import('../types.js').Rule}
 */
export default function scraperHeaders() {
  const report = reportOnce();
  return {
    // Nested under Operation so that a shared response is checked under every status it is used for.
    Operation: {
      Response: {
        enter(response, ctx) {
          const status = String(ctx.key);
          const headers = response?.headers ?? {};
          const { declared, required } = expectedHeaders(status);
          for (const name of [...declared, ...required]) {
            // Header names are case-insensitive in HTTP.
            const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
            if (key === undefined) {
              report(ctx, { message: `Response ${status} must declare header ${name}.`, location: ctx.location });
            } else if (required.includes(name) && ctx.resolve(headers[key]).node?.required !== true) {
              report(ctx, {
                message: `Header ${name} of response ${status} must be \`required: true\`.`,
                location: ctx.location.child(['headers', key]),
              });
            }
          }
        },
      },
    },
  };
}
