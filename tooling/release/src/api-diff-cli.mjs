// `pnpm --filter @content-scraper/release api-diff`: prints the change report; exits 1 on a breaking
// change without a major changeset for @content-scraper/spec.
import { checkApiChanges } from "./api-diff.mjs";

const { ok, report } = checkApiChanges();
process.stdout.write(report);
process.exitCode = ok ? 0 : 1;
