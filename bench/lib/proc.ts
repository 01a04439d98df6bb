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
 * Samples a set of processes once a second during a phase: CPU used (in cores, averaged over the phase) per
 * process and the largest resident set seen.
 */
export class ProcWatcher {
  private readonly start = new Map<number, ProcSample>();
  private readonly peakRss = new Map<number, number>();
  private readonly startedAt = performance.now();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pids: () => number[]) {
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

  stop(): { cpuCores: number; maxRssMb: number } {
    clearInterval(this.timer);
    const seconds = (performance.now() - this.startedAt) / 1000;
    let cpu = 0;
    for (const pid of this.pids()) {
      this.observe(pid, false);
      const begin = this.start.get(pid);
      const end = sampleProcess(pid);
      if (begin && end) cpu += end.cpuSeconds - begin.cpuSeconds;
    }
    const maxRss = Math.max(0, ...this.peakRss.values());
    return { cpuCores: Math.round((cpu / seconds) * 100) / 100, maxRssMb: Math.round(maxRss / 1048576) };
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
