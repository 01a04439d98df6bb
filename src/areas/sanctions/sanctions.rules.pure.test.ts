import { describe, expect, it } from 'vitest';
import { raisedAgain } from './sanctions.rules.js';

describe('whether a dismissed match is raised again', () => {
  const dismissal = { entity_digest: 'entity-v1', subject_digest: 'player-v1', score: 0.9 };

  it.each([
    ['entity and player unchanged', { score: 0.9, entity_digest: 'entity-v1' }, 'player-v1', false],
    [
      'entity unchanged, a higher score (another threshold)',
      { score: 0.95, entity_digest: 'entity-v1' },
      'player-v1',
      false,
    ],
    ['entity changed, the score rises', { score: 0.97, entity_digest: 'entity-v2' }, 'player-v1', true],
    ['entity changed, the same score', { score: 0.9, entity_digest: 'entity-v2' }, 'player-v1', false],
    ['entity changed, a lower score', { score: 0.86, entity_digest: 'entity-v2' }, 'player-v1', false],
    ["the player's details corrected", { score: 0.9, entity_digest: 'entity-v1' }, 'player-v2', true],
    ['a stub match (no content known), unchanged player', { score: 0.99 }, 'player-v1', false],
  ])('%s', (_, match, subject, expected) => {
    expect(raisedAgain(match, dismissal, subject)).toBe(expected);
  });

  it('matches a dismissal recorded without the entity content by the entity alone', () => {
    const older = { ...dismissal, entity_digest: null };
    expect(raisedAgain({ score: 1, entity_digest: 'entity-v9' }, older, 'player-v1')).toBe(false);
    expect(raisedAgain({ score: 1, entity_digest: 'entity-v9' }, older, 'player-v2')).toBe(true);
  });
});
