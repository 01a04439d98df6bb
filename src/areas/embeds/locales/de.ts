import type { Duration } from '../../exclusions/index.js';
import type { LimitType } from '../../limits/index.js';
import type { TimeOutDuration } from '../../time-outs/index.js';
import type { Messages } from './en.js';

/** German (Deutsch). */
export const de: Messages = {
  language: 'Deutsch',
  errorSummaryTitle: 'Es gibt ein Problem',
  returnTo: (operator: string) => `Zurück zu ${operator}`,
  providedBy: (operator: string) => `${operator} stellt diese Seite über einen Compliance-Dienst bereit.`,
  help: 'Wenn Glücksspiel Ihnen oder einem Ihnen nahestehenden Menschen schadet, finden Sie kostenlose und vertrauliche Hilfe bei Beratungsstellen in Ihrem Land.',
  at: 'UTC',

  exclusion: {
    title: 'Eine Pause vom Glücksspiel einlegen',
    intro: (operator: string) =>
      `Sie können sich bei ${operator} selbst für das Glücksspiel sperren. Solange die Sperre gilt, können Sie sich nicht anmelden, nicht einzahlen und nicht spielen. Die Sperre kann weder verkürzt noch aufgehoben werden.`,
    register:
      'Ihre Sperre wird außerdem im nationalen Sperrregister eingetragen. Deshalb lassen auch andere zugelassene Anbieter Sie nicht mehr spielen.',
    durationLegend: 'Wie lange möchten Sie gesperrt sein?',
    durations: {
      duration_24h: '24 Stunden',
      duration_7d: '7 Tage',
      duration_30d: '30 Tage',
      duration_6m: '6 Monate',
      duration_1y: '1 Jahr',
      duration_permanent: 'Dauerhaft',
    } satisfies Record<Duration, string>,
    permanentHint: 'Dauerhaft heißt für immer: Das kann nie rückgängig gemacht werden.',
    continue: 'Weiter',
    permanentTitle: 'Möchten Sie sich dauerhaft sperren?',
    permanentText: (operator: string) =>
      `Eine dauerhafte Sperre kann nie rückgängig gemacht werden: nicht von Ihnen, nicht von ${operator} und auch von niemand anderem.`,
    permanentConfirm: 'Ich verstehe, dass eine dauerhafte Sperre nie rückgängig gemacht werden kann',
    permanentSubmit: 'Ja, mich dauerhaft sperren',
    chooseAnother: 'Einen anderen Zeitraum wählen',
    codeTitle: 'Sehen Sie in Ihr E-Mail-Postfach',
    codeSent: (email: string, duration: string) =>
      `Wir haben einen 6-stelligen Code an ${email} gesendet. Geben Sie ihn ein, um Ihre Sperre für ${duration} zu bestätigen.`,
    codeSentPermanent: (email: string) =>
      `Wir haben einen 6-stelligen Code an ${email} gesendet. Geben Sie ihn ein, um Ihre dauerhafte Sperre zu bestätigen.`,
    codeExpiresAt: (time: string) => `Der Code gilt bis zum ${time}.`,
    codeLabel: 'Code aus der E-Mail',
    codeHint: '6 Ziffern, zum Beispiel 123456',
    confirm: 'Meine Sperre bestätigen',
    resend: 'Neuen Code senden',
    resendFrom: (time: string) => `Einen neuen Code können Sie ab dem ${time} anfordern.`,
    doneTitle: 'Sie sind gesperrt',
    doneUntil: (time: string) => `Ihre Sperre gilt bis zum ${time}.`,
    donePermanent: 'Ihre Sperre gilt dauerhaft.',
    doneNext: 'Solange sie gilt, können Sie sich nicht anmelden, nicht einzahlen und nicht spielen.',
  },

  limits: {
    title: 'Ihre Limits und Pausen',
    intro:
      'Limits helfen Ihnen, Ihre Einzahlungen, Ihre Verluste, Ihre Einsätze und Ihre Spielzeit im Griff zu behalten. Wenn Sie ein Limit senken, gilt das sofort. Wenn Sie ein Limit erhöhen, gilt das erst nach einer Schutzfrist: 24 Stunden bei bis zum Doppelten des aktuellen Limits, 48 Stunden bei bis zum Fünffachen, 7 Tage bei mehr.',
    contents: 'Auf dieser Seite',
    kinds: {
      deposit: {
        heading: 'Einzahlungslimits',
        name: 'Einzahlungslimit',
        intro: 'Wie viel Sie in einem Zeitraum auf Ihr Konto einzahlen können.',
        none: 'Sie haben noch kein Einzahlungslimit festgelegt.',
        used: 'Eingezahlt',
        remaining: 'Noch einzahlbar',
        noReset: 'Keine Einzahlungen im Zeitraum',
        formLegend: 'Ein Einzahlungslimit festlegen oder ändern',
        save: 'Einzahlungslimit speichern',
      },
      loss: {
        heading: 'Verlustlimits',
        name: 'Verlustlimit',
        intro:
          'Wie viel Sie in einem Zeitraum verlieren können: Ihre Einsätze abzüglich dessen, was Sie zurückgewinnen.',
        none: 'Sie haben noch kein Verlustlimit festgelegt.',
        used: 'Verloren',
        remaining: 'Noch bis zum Limit',
        noReset: 'Keine Verluste im Zeitraum',
        formLegend: 'Ein Verlustlimit festlegen oder ändern',
        save: 'Verlustlimit speichern',
      },
      wager: {
        heading: 'Einsatzlimits',
        name: 'Einsatzlimit',
        intro: 'Wie viel Sie in einem Zeitraum insgesamt einsetzen können, ob Sie gewinnen oder verlieren.',
        none: 'Sie haben noch kein Einsatzlimit festgelegt.',
        used: 'Eingesetzt',
        remaining: 'Noch einsetzbar',
        noReset: 'Keine Einsätze im Zeitraum',
        formLegend: 'Ein Einsatzlimit festlegen oder ändern',
        save: 'Einsatzlimit speichern',
      },
      play_time: {
        heading: 'Spielzeitlimits',
        name: 'Spielzeitlimit',
        intro: 'Wie lange Sie in einem Zeitraum oder in einer einzelnen Sitzung spielen können.',
        none: 'Sie haben noch kein Spielzeitlimit festgelegt.',
        used: 'Gespielt',
        remaining: 'Verbleibende Zeit',
        noReset: 'Keine Spielzeit im Zeitraum',
        formLegend: 'Ein Spielzeitlimit festlegen oder ändern',
        save: 'Spielzeitlimit speichern',
      },
    },
    period: 'Zeitraum',
    limit: 'Limit',
    resets: 'Nächste Freigabe im Limit',
    waiting: 'Ausstehende Änderung',
    types: {
      limit_daily: 'Täglich (24 Stunden)',
      limit_weekly: 'Wöchentlich (7 Tage)',
      limit_monthly: 'Monatlich (30 Tage)',
      limit_session: 'Pro Sitzung',
    } satisfies Record<LimitType, string>,
    pending: (amount: string, time: string) => `Steigt am ${time} auf ${amount}`,
    cancel: 'Diese Erhöhung zurücknehmen',
    amountLabel: (currency: string) => `Betrag (${currency})`,
    amountHint: 'Zum Beispiel 250 oder 250,50',
    timeLegend: 'Zeit',
    timeHint: 'Zum Beispiel 1 Stunde und 30 Minuten',
    hours: 'Stunden',
    minutes: 'Minuten',
    setNow: (limit: string, period: string, amount: string) =>
      `Ihr ${limit} „${period}“ beträgt jetzt ${amount}.`,
    increaseWaits: (limit: string, period: string, amount: string, time: string, current: string) =>
      `Ihr ${limit} „${period}“ steigt am ${time} auf ${amount}, wenn die Schutzfrist abgelaufen ist. Bis dahin bleibt es bei ${current}.`,
    cancelled: (limit: string, period: string, amount: string) =>
      `Die Erhöhung ist zurückgenommen. Ihr ${limit} „${period}“ bleibt bei ${amount}.`,
  },

  timeOut: {
    heading: 'Eine Spielpause einlegen',
    intro: (operator: string) =>
      `Eine Spielpause hält Sie für die Zeit, die Sie wählen, vom Spielen bei ${operator} ab. Sobald sie begonnen hat, kann sie weder verkürzt noch aufgehoben werden.`,
    durationLegend: 'Wie lange soll Ihre Pause dauern?',
    durations: {
      duration_24h: '24 Stunden',
      duration_7d: '7 Tage',
      duration_30d: '30 Tage',
      duration_6w: '6 Wochen',
    } satisfies Record<TimeOutDuration, string>,
    continue: 'Weiter',
    confirmTitle: (duration: string) => `Jetzt ${duration} Pause einlegen?`,
    confirmUntil: (time: string) => `Wenn Sie sie jetzt beginnen, dauert Ihre Pause bis zum ${time}.`,
    confirmText: (operator: string) =>
      `Bis dahin können Sie bei ${operator} nicht spielen. Sobald Ihre Pause begonnen hat, kann sie weder verkürzt noch aufgehoben werden, auch wenn Sie es sich anders überlegen.`,
    confirmSubmit: (duration: string) => `Ja, ${duration} Pause beginnen`,
    back: 'Zurück, ohne eine Pause einzulegen',
    inForce: (time: string) => `Sie machen eine Spielpause bis zum ${time}.`,
    inForceNext: 'Sie kann weder verkürzt noch aufgehoben werden.',
    longerLegend: 'Möchten Sie eine längere Pause?',
    longerHint: 'Eine längere Pause beginnt sofort und ersetzt Ihre aktuelle Pause.',
    started: (time: string) => `Ihre Pause hat begonnen. Sie dauert bis zum ${time}.`,
  },

  realityCheck: {
    heading: 'Realitätschecks',
    intro:
      'Während Sie spielen, zeigt Ihnen eine Erinnerung, wie lange Sie schon spielen und wie viel Sie gewonnen oder verloren haben. Sie wählen, wie oft sie erscheint. Die Erinnerungen lassen sich nicht abschalten.',
    current: (interval: string) => `Zeit zwischen den Erinnerungen: ${interval}`,
    yourChoice: 'Das haben Sie selbst gewählt.',
    operatorDefault: (operator: string) => `Das ist die Voreinstellung von ${operator}.`,
    legend: 'Wie viel Zeit soll zwischen den Erinnerungen liegen?',
    hint: 'Ihre Wahl gilt für die Sitzungen, die Sie nach dem Speichern beginnen. Eine laufende Sitzung behält ihre Erinnerungen.',
    useDefault: (operator: string, interval: string) => `Voreinstellung von ${operator} (${interval})`,
    save: 'Erinnerungen speichern',
    saved: (interval: string) =>
      `Gespeichert. Ab Ihrer nächsten Sitzung erinnern wir Sie im Abstand von ${interval}.`,
    savedDefault: (operator: string, interval: string) =>
      `Gespeichert. Ab Ihrer nächsten Sitzung gilt die Voreinstellung von ${operator}: eine Erinnerung im Abstand von ${interval}.`,
  },

  errors: {
    chooseDuration: 'Wählen Sie, wie lange Sie gesperrt sein möchten',
    confirmPermanent:
      'Setzen Sie das Häkchen, um zu bestätigen: Sie verstehen, dass eine dauerhafte Sperre nie rückgängig gemacht werden kann',
    enterCode: 'Geben Sie den 6-stelligen Code aus der E-Mail ein',
    wrongCode: (left: number) =>
      left === 1
        ? 'Der Code ist nicht richtig. Sie haben noch 1 Versuch.'
        : `Der Code ist nicht richtig. Sie haben noch ${left} Versuche.`,
    lastWrongCode:
      'Der Code ist nicht richtig, und das war der letzte Versuch. Fordern Sie einen neuen Code an.',
    codeExpired: 'Der Code ist abgelaufen. Fordern Sie einen neuen Code an.',
    codeLocked: 'Es wurden zu viele falsche Codes eingegeben. Fordern Sie einen neuen Code an.',
    codeNotRequested: 'Wählen Sie zuerst einen Zeitraum; danach senden wir Ihnen einen Code.',
    resendTooEarly: (seconds: number) =>
      `Warten Sie ${seconds} Sekunden, bevor Sie einen neuen Code anfordern.`,
    tooManyCodes: (minutes: number) =>
      `An diese E-Mail-Adresse wurden zu viele Codes gesendet. Versuchen Sie es in ${minutes} Minuten erneut.`,
    alreadyExcluded: 'Sie haben bereits eine Sperre, die durch diese nicht ersetzt werden kann.',
    sessionExpired: (operator: string) =>
      `Diese Seite ist abgelaufen. Gehen Sie zurück zu ${operator} und öffnen Sie die Seite erneut.`,
    sessionInvalid:
      'Diese Seite ist nicht verfügbar. Gehen Sie zurück zu der Website, von der Sie gekommen sind, und öffnen Sie die Seite erneut.',
    sessionCompleted: 'Diese Seite wurde bereits verwendet.',
    chooseType: 'Wählen Sie den Zeitraum des Limits',
    enterAmount: 'Geben Sie einen Betrag ein, zum Beispiel 250 oder 250,50',
    belowMinimum: 'Das Limit ist zu niedrig. Geben Sie einen höheren Betrag ein.',
    enterTime: 'Geben Sie eine Zeit in Stunden und Minuten ein, zum Beispiel 1 Stunde und 30 Minuten',
    timeTooShort: 'Das Limit ist zu kurz. Geben Sie mindestens 5 Minuten ein.',
    tooLateToCancel: 'Diese Erhöhung gilt bereits und kann deshalb nicht mehr zurückgenommen werden.',
    chooseBreak: 'Wählen Sie, wie lange Ihre Pause dauern soll',
    chooseReminder: 'Wählen Sie, wie viel Zeit zwischen den Erinnerungen liegen soll',
    pendingChange:
      'Eine Erhöhung dieses Limits wartet bereits. Nehmen Sie sie zurück, bevor Sie eine weitere beantragen.',
    currencyMismatch:
      'Ihre Limits werden in einer anderen Währung geführt. Wenden Sie sich an den Kundenservice.',
    generic:
      'Etwas ist schiefgelaufen. Versuchen Sie es erneut oder gehen Sie zurück zu der Website, von der Sie gekommen sind.',
  },

  mail: {
    subject: 'Ihr Bestätigungscode',
    body: (code: string, operator: string, duration: string, minutes: number) =>
      `Ihr Bestätigungscode lautet ${code}.\n\nGeben Sie ihn auf der Seite von ${operator} ein, um Ihre Selbstsperre zu bestätigen (${duration}). Der Code gilt ${minutes} Minuten lang.\n\nWenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ohne den Code ändert sich nichts.`,
  },
};
