import { createHash } from 'node:crypto';

/**
 * A digest of a table's rows that does not depend on their order: each row as canonical text (an integer's
 * digits, a float's shortest round-trip digits, text as JSON, bytes as hex, null), the rows sorted, then SHA-256.
 * The source and the loaded copy must give the same digest.
 */
export class TableDigest {
  private readonly rows: string[] = [];

  add(row: readonly unknown[]): void {
    this.rows.push(row.map(canonical).join('\u0001'));
  }

  get count(): number {
    return this.rows.length;
  }

  digest(): string {
    const h = createHash('sha256');
    for (const r of [...this.rows].sort()) h.update(r).update('\n');
    return h.digest('hex');
  }
}

function canonical(v: unknown): string {
  if (v === null || v === undefined) return 'N';
  if (typeof v === 'bigint') return `i${v.toString()}`;
  if (typeof v === 'number') return Number.isInteger(v) ? `i${BigInt(v).toString()}` : `f${String(v)}`;
  if (typeof v === 'string') return `s${JSON.stringify(v)}`;
  if (v instanceof Uint8Array) return `b${Buffer.from(v).toString('hex')}`;
  return `?${String(v)}`;
}
