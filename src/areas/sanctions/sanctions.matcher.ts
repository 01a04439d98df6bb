import type { Tenant } from '../../platform/db/platform-tables.js';
import { selectVendor, type Vendors } from '../../platform/vendors.js';

/** What a matcher is asked: the person as the tenant registered them. */
export interface ScreeningSubject {
  first_name: string;
  last_name: string;
  date_of_birth: string;
  nationality: string;
}

/**
 * One list entry a subject resembles. Back office only: never in a tenant response or webhook. The optional fields
 * are the production matcher's evidence for the reviewer; the sandbox stub sets none of them.
 */
export interface SanctionsMatch {
  list: string;
  entity_id: string;
  /** The entity's name that matched best, as the list prints it. */
  name: string;
  score: number;
  entity_type?: string;
  primary_name?: string;
  programmes?: string[];
  matched_name_quality?: 'primary' | 'strong' | 'weak';
  matched_name_non_latin?: boolean;
  /** The name comparison alone, before date of birth and nationality moved it. */
  name_score?: number;
  /** How the subject's date of birth compares with the entity's (exact, same_year, in_range, near, conflict…). */
  date_of_birth?: string;
  /** match, conflict, not_listed or not_given. */
  nationality?: string;
  /** True when the match rests on a weak alias, held below the hit threshold on its own. */
  weak_alias_capped?: boolean;
  /** The publication of the list the entity was matched in. */
  list_published_on?: string;
  /** The digest of the entity's screening-relevant content then: what a dismissal of this match remembers. */
  entity_digest?: string;
}

/** The publication of one list a screening ran against: with the files, an auditor can replay it. */
export interface ListVersion {
  published_on: string;
  format: string;
  files: string[];
  /** The digest of the version's screening content (absent for the stub and for screenings before it was kept). */
  digest?: string;
}

export interface ScreeningResult {
  matches: SanctionsMatch[];
  /** Publication of each list the screening ran against, so an auditor can replay it. */
  list_versions: Record<string, ListVersion>;
}

/** A sanctions matcher: the sandbox stub here, the production matcher over the real lists behind the same shape. */
export interface SanctionsMatcher {
  readonly kind: 'sandbox' | 'production';
  /** Loads what the matcher needs (the production lists), or throws 503 vendor_unavailable. */
  prepare?(): Promise<void>;
  screen(subject: ScreeningSubject): Promise<ScreeningResult>;
}

const STUB_LISTS: Record<string, ListVersion> = {
  SANDBOX: { published_on: 'sandbox-1', format: 'sandbox', files: [] },
};

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

/** Sandbox tenants get the stub; a live tenant gets the production matcher once sanctions is cut over for it. */
export function matcherFor(vendors: Vendors, tenant: Tenant): SanctionsMatcher {
  return selectVendor(tenant, 'sanctions', vendors.sanctions);
}
