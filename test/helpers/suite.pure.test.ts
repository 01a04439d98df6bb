import { describe, expect, it } from 'vitest';
import { useSuite } from './suite.js';

describe('useSuite', () => {
  const closed: string[] = [];
  const closable = (name: string) => ({ name, close: () => void closed.push(name) });

  describe('a suite of tests', () => {
    const suite = useSuite(
      async (own) => {
        own(closable('service'));
        own(closable('receiver'));
        return closable('driver');
      },
      { eachTest: () => void closed.push('each test') },
    );

    it('hands each test what start returned, after eachTest', () => {
      expect(suite.current.name).toBe('driver');
      expect(closed).toEqual(['each test']);
      suite.own(closable('started by a test'));
    });
  });

  it('closed, after its last test, all it owned and the value, last first', () => {
    expect(closed).toEqual(['each test', 'started by a test', 'driver', 'receiver', 'service']);
  });

  describe('a suite of tests that each start their own', () => {
    const log: string[] = [];
    let n = 0;
    const suite = useSuite(
      async () => {
        const mine = ++n;
        return { n: mine, close: () => void log.push(`closed ${mine}`) };
      },
      { perTest: true },
    );

    it('hands the first test what start returned for it', () => {
      expect(suite.current.n).toBe(1);
      expect(log).toEqual([]);
    });
    it('hands the next test a new one, the first closed', () => {
      expect(suite.current.n).toBe(2);
      expect(log).toEqual(['closed 1']);
    });
  });

  describe('read before it starts', () => {
    const suite = useSuite(async () => 'started');
    it('answers in a test', () => expect(suite.current).toBe('started'));
    expect(() => suite.current).toThrow('the suite has not started');
  });
});
