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

  describe('read before it starts', () => {
    const suite = useSuite(async () => 'started');
    it('answers in a test', () => expect(suite.current).toBe('started'));
    expect(() => suite.current).toThrow('the suite has not started');
  });
});
