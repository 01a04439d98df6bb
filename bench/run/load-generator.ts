/** The load generator's process, driven one phase at a time, and what is watched on the server meanwhile. */
import { fork } from 'node:child_process';
import path from 'node:path';
import type { LoadResult, LoadSpec } from '../loadgen.js';
import { postgresPids, ProcWatcher } from '../lib/proc.js';
import { timelineDir } from './options.js';

export interface MeasuredServer {
  baseUrl: string;
  /** Every process of the server. */
  pids: () => number[];
  /** The processes that answer requests. */
  apiPids: () => number[];
}

/** Numbers the run's measured phases, for their timeline files. */
let measuredPhases = 0;

/** A load generator in its own process, running one phase at a time; a path's phases share it. */
export class LoadGenerator {
  private readonly child = fork(path.join(import.meta.dirname, '..', 'loadgen.ts'), {
    execArgv: ['--import', 'tsx'],
  });

  run(spec: LoadSpec): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      const exited = (code: number | null) =>
        reject(new Error(`load generator exited with ${code} before reporting`));
      this.child.once('exit', exited);
      this.child.once('message', (result) => {
        this.child.off('exit', exited);
        resolve(result as LoadResult);
      });
      this.child.send(spec);
    });
  }

  /** A measured phase: the generator's result with the server's and PostgreSQL's CPU and memory meanwhile. */
  async measure(service: MeasuredServer, spec: Omit<LoadSpec, 'baseUrl'>) {
    const watcher = new ProcWatcher(service.pids, service.apiPids);
    const database = new ProcWatcher(postgresPids);
    const timelineFile =
      timelineDir &&
      path.join(timelineDir, `${++measuredPhases}-${spec.scenario}-${spec.mode}-${spec.rate ?? 'max'}.txt`);
    const result = await this.run({ ...spec, baseUrl: service.baseUrl, timelineFile });
    return { result, server: watcher.stop(), postgres: database.stop() };
  }

  close(): void {
    this.child.disconnect();
  }
}
