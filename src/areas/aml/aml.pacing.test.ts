// The two-worker test starts a second service on the suite's database (TestService.start on its data directory).
import { describe, expect, it } from 'vitest';
import { useSuite } from '../../../test/helpers/suite.js';
import { TestService } from '../../../test/helpers/test-service.js';
import type { Platform } from '../../platform/context.js';
import { recordProcessLoad } from '../../platform/process-load.store.js';
import { BATCH_SIZE, EVALUATION_DEADLINE_MS, evaluationQueue } from './aml.evaluator.js';
import { AmlDriver } from './aml.test-support.js';
import { usd } from '../../../test/helpers/units.js';

const STEP_SECONDS = 2;

/** What an API process under endless traffic records each second: its event loop fully busy. */
const busyApi = (platform: Platform) =>
  recordProcessLoad(
    platform.db,
    { process_id: 'api-under-load', role: 'api', busy: 1, sampled_at: platform.clock.now() },
    new Date(0),
  );

/** The oldest waiting event's age (s) and how many wait. */
async function queueState(platform: Platform) {
  const { waiting, oldestAt } = await evaluationQueue(platform.db);
  const ageSeconds = oldestAt ? (platform.clock.now().getTime() - oldestAt.getTime()) / 1000 : 0;
  return { waiting, ageSeconds };
}

const evaluatedBy = async (platform: Platform) =>
  (await platform.metrics.registry.getSingleMetric('compliance_aml_events_evaluated_total')!.get()).values[0]
    ?.value ?? 0;

/** A backlog of three batches and more, acknowledged through the API now. */
async function backlog(d: AmlDriver): Promise<number> {
  const count = 3 * BATCH_SIZE + 50;
  for (let sent = 0; sent < count; sent += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, count - sent) }, () => d.event(d.newUser(), 'deposit', usd(20))),
    );
  return count;
}

describe('AML evaluation paced against the API (ADR 0019)', () => {
  const suite = useSuite(() => AmlDriver.start());

  it.skipIf(process.env.DATABASE_URL)(
    'on embedded PGlite keeps its own regime: a busy API does not hold evaluation back',
    async () => {
      const d = suite.current;
      const { platform } = d.t;
      for (let i = 0; i < 20; i++) await d.event(d.newUser(), 'deposit', usd(20));
      await busyApi(platform);
      await d.t.service.workers.tick();
      expect((await queueState(platform)).waiting).toBe(0);
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    'rests between batches while the API is busy, goes on evaluating however long it stays busy, and never lets an event pass the deadline',
    async () => {
      const d = suite.current;
      const { platform } = d.t;
      const count = await backlog(d);

      await busyApi(platform);
      await d.t.service.workers.tick();
      const afterFirstPass = await queueState(platform);
      // The worker rested after a batch instead of draining the queue.
      expect(afterFirstPass.waiting).toBeGreaterThan(0);
      expect(afterFirstPass.waiting).toBeLessThan(count);

      // The API stays busy for longer than the deadline, and events keep arriving. Every pass evaluates something,
      // and no event waits past the deadline when a pass starts (its evaluation happens at that instant).
      const ages: number[] = [];
      const evaluatedPerPass: number[] = [];
      for (let elapsed = 0; elapsed <= (EVALUATION_DEADLINE_MS / 1000) * 1.2; elapsed += STEP_SECONDS) {
        await d.event(d.newUser(), 'deposit', usd(20));
        await d.t.advance(STEP_SECONDS);
        await busyApi(platform);
        ages.push((await queueState(platform)).ageSeconds);
        const before = await evaluatedBy(platform);
        await d.t.service.workers.tick();
        evaluatedPerPass.push((await evaluatedBy(platform)) - before);
      }
      expect(Math.max(...ages)).toBeLessThanOrEqual(EVALUATION_DEADLINE_MS / 1000);
      expect(Math.min(...evaluatedPerPass)).toBeGreaterThan(0);

      // The API quiet (its last sample older than the freshness window): what waits is evaluated in one pass.
      await d.event(d.newUser(), 'deposit', usd(20));
      await d.t.advance(10);
      await d.t.service.workers.tick();
      expect((await queueState(platform)).waiting).toBe(0);
    },
  );

  it.runIf(process.env.DATABASE_URL)(
    'paces two worker processes on one PostgreSQL together: both evaluate, and the deadline holds',
    async () => {
      // A tenant of its own: its API key's rate limit is untouched by the test before.
      const d = await suite.current.otherTenant();
      const first = d.t;
      const second = suite.own(
        await TestService.start({}, { dataDir: first.config.dataDir, databaseUrl: first.config.databaseUrl }),
      );
      const before = [await evaluatedBy(first.platform), await evaluatedBy(second.platform)];
      const count = 4 * BATCH_SIZE;
      for (let sent = 0; sent < count; sent += 50)
        await Promise.all(Array.from({ length: 50 }, () => d.event(d.newUser(), 'deposit', usd(20))));

      const ages: number[] = [];
      for (
        let elapsed = 0;
        elapsed < 60 && (await queueState(first.platform)).waiting > 0;
        elapsed += STEP_SECONDS
      ) {
        await busyApi(first.platform);
        await Promise.all([first.service.workers.tick(), second.service.workers.tick()]);
        ages.push((await queueState(first.platform)).ageSeconds);
        await d.t.advance(STEP_SECONDS);
      }
      // Each worker saw the other and took its share of the rate.
      expect(first.platform.load.latest.workers).toBe(2);
      expect(second.platform.load.latest.workers).toBe(2);
      expect((await queueState(first.platform)).waiting).toBe(0);
      expect(Math.max(...ages)).toBeLessThanOrEqual(EVALUATION_DEADLINE_MS / 1000);
      const taken = [
        (await evaluatedBy(first.platform)) - before[0]!,
        (await evaluatedBy(second.platform)) - before[1]!,
      ];
      expect(taken[0]! + taken[1]!).toBe(count);
      expect(Math.min(...taken)).toBeGreaterThan(0);
    },
  );
});
