import type { Locale } from '../embeds.rules.js';
import { de } from './de.js';
import { en, type Messages } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { it } from './it.js';
import { nl } from './nl.js';
import { sv } from './sv.js';

export type { Messages } from './en.js';

/** One file a language; each implements English's shape, so a missing phrase is a type error. */
export const MESSAGES: Record<Locale, Messages> = { en, de, es, fr, it, nl, sv };

/** A date and time as the player reads it: their language's words, in UTC (said so), to the minute. */
export function formatTime(locale: Locale, at: Date): string {
  const text = new Intl.DateTimeFormat(locale, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(at);
  return `${text} ${MESSAGES[locale].at}`;
}
