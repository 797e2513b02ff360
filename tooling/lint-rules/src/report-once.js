/**
 * A `report` that drops repeats. Rules nested under Operation visit a shared response once per operation
 * that uses it, and without this its problem would be listed once per operation.
 */
export function reportOnce() {
  const reported = new Set();
  /** @param {import('./types.js').Context} ctx @param {{ message: string, location: import('./types.js').Location }} problem */
  return (ctx, problem) => {
    const key = `${problem.location.source.absoluteRef}${problem.location.pointer} ${problem.message}`;
    if (reported.has(key)) return;
    reported.add(key);
    ctx.report(problem);
  };
}
