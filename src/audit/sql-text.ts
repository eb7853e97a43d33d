/** The query without surrounding space and trailing semicolons, so probes can append to it and tokens end at its last clause. */
export function statementText(sql: string): string {
  // An index scan: `/;+\s*$/` retries at every `;` of a run (quadratic in a run of semicolons).
  const t = sql.trim();
  let end = t.length;
  while (end > 0 && t.charCodeAt(end - 1) === 59 /* ; */) end--;
  return t.slice(0, end);
}
