import fs from 'node:fs';

/** CPU time and resident memory of a process tree's members, read from /proc (Linux). */
export interface ProcSample {
  cpuSeconds: number;
  rssBytes: number;
}

const CLOCK_TICKS = 100;

export function sampleProcess(pid: number): ProcSample | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return { cpuSeconds, rssBytes: rssKb * 1024 };
  } catch {
    return undefined;
  }
}

/**
 * Time the main thread of a process has spent runnable but waiting for a core, in seconds (the second field of
 * /proc/<pid>/schedstat). For an API process this is how long its event loop had work and no CPU to do it on.
 */
export function runQueueWaitSeconds(pid: number): number | undefined {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;
  } catch {
    return undefined;
  }
}

/** The role a service process was started with (COMPLIANCE_PROCESS_ROLE), from its environment. */
export function processRole(pid: number): string | undefined {
  try {
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    return environ.find((entry) => entry.startsWith('COMPLIANCE_PROCESS_ROLE='))?.split('=')[1];
  } catch {
    return undefined;
  }
}

/** Children of a process (the API and worker processes a supervisor forks). */
export function childPids(pid: number): number[] {
  try {
    return fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Samples a set of processes twice a second during a phase: CPU used (in cores, averaged over the phase), the
 * largest resident set seen, and, for the processes of `waiting`, how long their main threads waited for a core
 * (milliseconds per second of the phase, summed over those processes).
 */
export class ProcWatcher {
  private readonly start = new Map<number, ProcSample>();
  private readonly waitStart = new Map<number, number>();
  private readonly peakRss = new Map<number, number>();
  private readonly startedAt = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pids: () => number[],
    private readonly waiting: () => number[] = () => [],
  ) {
    for (const pid of waiting()) {
      const wait = runQueueWaitSeconds(pid);
      if (wait !== undefined) this.waitStart.set(pid, wait);
    }
    for (const pid of pids()) this.observe(pid, true);
    this.timer = setInterval(() => {
      for (const pid of this.pids()) this.observe(pid, false);
    }, 500);
  }

  private observe(pid: number, first: boolean) {
    const sample = sampleProcess(pid);
    if (!sample) return;
    if (first || !this.start.has(pid)) this.start.set(pid, sample);
    this.peakRss.set(pid, Math.max(this.peakRss.get(pid) ?? 0, sample.rssBytes));
  }

  stop(): { cpuCores: number; maxRssMb: number; waitMsPerSecond: number } {
    clearInterval(this.timer);
    const seconds = (performance.now() - this.startedAt) / 1000;
    let cpu = 0;
    for (const pid of this.pids()) {
      this.observe(pid, false);
      const begin = this.start.get(pid);
      const end = sampleProcess(pid);
      if (begin && end) cpu += end.cpuSeconds - begin.cpuSeconds;
    }
    let wait = 0;
    for (const [pid, begin] of this.waitStart) wait += (runQueueWaitSeconds(pid) ?? begin) - begin;
    const maxRss = Math.max(0, ...this.peakRss.values());
    return {
      cpuCores: Math.round((cpu / seconds) * 100) / 100,
      maxRssMb: Math.round(maxRss / 1048576),
      waitMsPerSecond: Math.round((wait / seconds) * 1000),
    };
  }
}

/** Every process named `postgres` on this machine (the server and its backends), when it runs locally. */
export function postgresPids(): number[] {
  return fs
    .readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    })
    .map(Number);
}
