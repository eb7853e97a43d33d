import type { StoredBatch } from '../llm/batch/batch-store.js';
import type { Report } from './model.js';

/** `sqlboard batch status`: the run store's provider batches and where each stands. */
export function batchStatusReport(store: string, batches: StoredBatch[]): Report {
  const open = batches.filter((b) => !b.collected).length;
  return {
    title: 'Provider batches',
    meta: { store, batches: batches.length, open },
    sections: [
      {
        title: 'Batches',
        table: {
          columns: [
            { key: 'id', header: 'Batch' },
            { key: 'provider', header: 'Provider' },
            { key: 'model', header: 'Model' },
            { key: 'state', header: 'State' },
            { key: 'total', header: 'Requests', format: 'integer' },
            { key: 'completed', header: 'Done', format: 'integer' },
            { key: 'failed', header: 'Failed', format: 'integer' },
            { key: 'collected', header: 'Collected' },
            { key: 'submittedAt', header: 'Submitted' },
          ],
          rows: batches.map((b) => ({ ...b, collected: b.collected ? 'yes' : 'no', submittedAt: b.submittedAt.replace('T', ' ').slice(0, 19) })),
        },
        notes: [
          batches.length === 0
            ? 'No batches in this store: `sqlboard judge --batch` and `sqlboard audit --llm-agent … --batch` submit them.'
            : `${open} batch(es) not yet collected: run the command that submitted them again to poll and collect them (states as last polled).`,
        ],
      },
    ],
  };
}
