/** The benchmark's command-line flags and what follows from them; read once, when the run starts. */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { FULL_SCALE, QUICK_SCALE } from '../seed.js';

const args = process.argv.slice(2);
export const quick = args.includes('--quick');
export const keepDatabase = args.includes('--keep-db');
/** `--cpu-prof`: every service process writes a V8 CPU profile under bench/profiles/ when it stops. */
export const cpuProfile = args.includes('--cpu-prof');
export const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
export const scale = quick ? QUICK_SCALE : FULL_SCALE;
export const runId = randomBytes(4).toString('hex');
/**
 * `--timeline`: every measured request's send time and latency, and every service process's garbage collections
 * (--trace-gc), are written under bench/profiles/timeline-<run>/, for `tsx bench/timeline.ts` to line up.
 */
export const timelineDir = args.includes('--timeline')
  ? path.join('bench', 'profiles', `timeline-${runId}`)
  : undefined;
/** The back-office token of every service process the run starts. */
export const token = `bench-${randomBytes(16).toString('hex')}`;
export const log = (line: string) => console.log(line);

/** `--phase-seconds=N`: open-loop phases of at most N seconds (quick runs long enough to show a tail). */
const phaseCap = Number(args.find((a) => a.startsWith('--phase-seconds='))?.slice('--phase-seconds='.length));
export const phaseSeconds = (seconds: number) => Math.min(seconds, phaseCap || (quick ? 5 : seconds));
const share = args.find((a) => a.startsWith('--steady-share='))?.slice('--steady-share='.length);
/** `--steady-share=0.3`: the burst-then-steady phase offers each path this share of its capacity (default 0.6). */
export const steadyShare = share === undefined ? undefined : Number(share);
export const closedSeconds = quick ? 3 : 10;
export const warmUpSeconds = quick ? 2 : 5;
