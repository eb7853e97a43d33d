/**
 * Outputs without their provenance (`schemaVersion` and `meta` of a --json object; the footer of a
 * Markdown or HTML report), which names the time of the run: what is left must not depend on it.
 */
export function withoutMeta<T>(json: T): Omit<T, 'schemaVersion' | 'meta'> {
  const { schemaVersion: _v, meta: _m, ...rest } = json as T & { schemaVersion?: unknown; meta?: unknown };
  return rest;
}

/** A --json text without `schemaVersion` and `meta`, printed as the CLI prints JSON. */
export function jsonTextWithoutMeta(text: string): string {
  return JSON.stringify(withoutMeta(JSON.parse(text) as object), null, 2) + '\n';
}

/** A Markdown report without its provenance footer. */
export function markdownWithoutMeta(md: string): string {
  const at = md.indexOf('\n---\n\n<details><summary>Provenance');
  return at < 0 ? md : md.slice(0, at);
}

/** An HTML report without its provenance footer. */
export function htmlWithoutMeta(html: string): string {
  return html.replace(/<footer class="provenance"[\s\S]*?<\/footer>\n/, '');
}
