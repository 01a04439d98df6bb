/** What a matcher is asked: the person as the tenant registered them. */
export interface ScreeningSubject {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  nationality: string;
}

/** One list entry a subject resembles. Back office only: never in a tenant response or webhook. */
export interface SanctionsMatch {
  list: string;
  entity_id: string;
  name: string;
  score: number;
}

export interface ScreeningResult {
  matches: SanctionsMatch[];
  /** Publication of each list the screening ran against, so an auditor can replay it. */
  list_versions: Record<string, string>;
}

/** A sanctions matcher: the sandbox stub here, the production matcher over the real lists behind the same shape. */
export interface SanctionsMatcher {
  readonly kind: 'sandbox' | 'production';
  screen(subject: ScreeningSubject): Promise<ScreeningResult>;
}

const STUB_LISTS = { SANDBOX: 'sandbox-1' };

/** The spec's documented sandbox triggers, deterministic and list-free. */
export const sandboxMatcher: SanctionsMatcher = {
  kind: 'sandbox',
  async screen(subject) {
    const matches: SanctionsMatch[] = [];
    if (subject.first_name === 'SanctionedSam') {
      matches.push({ list: 'SANDBOX', entity_id: 'sandbox-sam', name: 'Sam SANCTIONED', score: 0.97 });
    } else if (subject.first_name.startsWith('Maybe')) {
      matches.push({
        list: 'SANDBOX',
        entity_id: 'sandbox-maybe',
        name: `${subject.first_name} BORDERLINE`,
        score: 0.85,
      });
    }
    if (subject.last_name === 'TestHit') {
      matches.push(
        { list: 'SANDBOX', entity_id: 'sandbox-testhit-1', name: 'Test HIT', score: 0.91 },
        { list: 'SANDBOX', entity_id: 'sandbox-testhit-2', name: 'Testa HITT', score: 0.88 },
      );
    }
    return { matches, list_versions: STUB_LISTS };
  },
};
