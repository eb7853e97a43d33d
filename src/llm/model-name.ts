const DATED = /(\d{4}-\d{2}-\d{2}|\d{8})$/;

/**
 * Whether a model id ends in a snapshot date (gpt-4o-2024-08-06, claude-3-5-sonnet-20241022).
 * Anchored at the end: a date inside the id (x-2024-08-06-preview) names no snapshot.
 */
export function isDatedModel(model: string): boolean {
  return DATED.test(model);
}

/**
 * Judges are named `<model>-<snapshot date>` so versions can be told apart:
 * a dated model id (gpt-4o-2024-08-06) is its own name; otherwise the
 * snapshot the user names, else the dated version the API reported, else the
 * date of the run (an undated alias means "whatever the vendor served that day"), or `undated`
 * in its place where the run's date names nothing served (a replayed recording: `gpt-4o-replay`).
 */
export function judgeName(model: string, opts: { snapshot?: string; resolvedModel?: string; runDate?: Date; undated?: string } = {}): string {
  const m = model.replace(/^models\//, '');
  if (isDatedModel(m)) return m;
  if (opts.snapshot) return `${m}-${opts.snapshot}`;
  const resolved = opts.resolvedModel?.replace(/^models\//, '');
  if (resolved && resolved.startsWith(m) && isDatedModel(resolved)) return resolved;
  if (opts.undated) return `${m}-${opts.undated}`;
  const d = (opts.runDate ?? new Date()).toISOString().slice(0, 10);
  return `${m}-${d}`;
}
