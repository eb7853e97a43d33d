import type { ChildProcess } from 'node:child_process';

/** The VES timing processes alive, so that an interrupted run can kill them (ExecutionEngine.interruptNow). */
const timingProcesses = new Set<ChildProcess>();

export function trackTimingProcess(child: ChildProcess): void {
  timingProcesses.add(child);
  child.once('exit', () => timingProcesses.delete(child));
}

export function killTimingProcesses(): void {
  for (const child of timingProcesses) child.kill('SIGKILL');
}
