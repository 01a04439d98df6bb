import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

export interface Closable {
  close(): unknown;
}

/** Hands `closable` to the suite, which closes it after its last test; returns it unchanged. */
export type Own = <C extends Closable>(closable: C) => C;

export interface Suite<T> {
  /** What `start` returned; read it inside a test or hook (it does not exist before the suite's beforeAll). */
  readonly current: T;
  /** Something a test started that must outlive it, closed with the rest after the suite's last test. */
  own: Own;
}

/**
 * Registers a suite's set-up: `start` runs once before its tests, and after them the suite closes, last first,
 * everything `start` passed to `own`, the value itself when it has a close(), and what tests passed to
 * `suite.own`, whether the tests passed or not. `eachTest` runs before every test (a fresh player, say).
 * `perTest` starts and closes it all around every test instead, for tests that each need a service of their own
 * (a count over every tenant's rows, dates fixed by the test clock's start). Call inside a describe block, or at the
 * top of a file.
 */
export function useSuite<T>(
  start: (own: Own) => Promise<T>,
  options: { eachTest?: (current: T) => unknown; perTest?: boolean } = {},
): Suite<T> {
  const owned: Closable[] = [];
  const own: Own = (closable) => {
    owned.push(closable);
    return closable;
  };
  let started: { value: T } | undefined;

  const [before, after] = options.perTest ? [beforeEach, afterEach] : [beforeAll, afterAll];
  before(async () => {
    const value = await start(own);
    if (isClosable(value) && !owned.includes(value)) own(value);
    started = { value };
  });
  after(async () => {
    started = undefined;
    const failures: unknown[] = [];
    // One that fails to close must not leave the rest (a database, a listening port) open.
    for (const closable of owned.splice(0).reverse()) {
      try {
        await closable.close();
      } catch (error) {
        failures.push(error);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'closing the suite failed');
  });
  if (options.eachTest) {
    const eachTest = options.eachTest;
    beforeEach(async () => {
      await eachTest(suite.current);
    });
  }

  const suite: Suite<T> = {
    get current(): T {
      if (!started) throw new Error('the suite has not started: read suite.current inside a test or hook');
      return started.value;
    },
    own,
  };
  return suite;
}

function isClosable(value: unknown): value is Closable {
  return typeof (value as Partial<Closable> | null)?.close === 'function';
}
