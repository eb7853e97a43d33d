/** yargs's own keys and the output options (--json, --csv, ...), which are the CLI's, not the library's. */
const NOT_API = new Set(['_', '$0', 'j', 'json', 'csv', 'csv-raw', 'csvRaw', 'md', 'html', 'wide']);

/**
 * The options a command hands the library (src/api/): yargs's camelCase keys, without its
 * bookkeeping, the kebab-case twin of every option, aliases and the output options. What is
 * left is what the outputs' provenance records as the command's options.
 */
export function apiOptions<T extends object>(argv: T): T {
  return Object.fromEntries(Object.entries(argv).filter(([k]) => !NOT_API.has(k) && !k.includes('-'))) as T;
}
