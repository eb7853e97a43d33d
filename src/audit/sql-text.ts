/** The query without surrounding space and trailing semicolons, so probes can append to it and tokens end at its last clause. */
export function statementText(sql: string): string {
  return sql.trim().replace(/;+\s*$/, '');
}
