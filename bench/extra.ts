/** Further timings printed by `npm run bench` (audit CPU pass etc.) are registered here. */
export async function extraBenchmarks(
  _line: (label: string, value: string) => void,
  _fmt: (ms: number) => string,
): Promise<void> {}
