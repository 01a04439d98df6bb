import type { Duration } from '../../exclusions/index.js';
import type { WindowType } from '../../limits/index.js';
import type { Messages } from './en.js';

/** Swedish (Svenska). */
export const sv: Messages = {
  language: 'Svenska',
  errorSummaryTitle: 'Det finns ett problem',
  returnTo: (operator: string) => `Tillbaka till ${operator}`,
  providedBy: (operator: string) => `${operator} tillhandahåller den här sidan via sin compliancetjänst.`,
  help: 'Om spel skadar dig eller någon i din närhet kan du få gratis och konfidentiell hjälp hos stödtjänster i ditt land.',
  at: 'UTC',

  exclusion: {
    title: 'Ta en paus från spel',
    intro: (operator: string) =>
      `Du kan stänga av dig från spel hos ${operator}. Så länge avstängningen gäller kan du inte logga in, sätta in pengar eller spela, och den går inte att korta eller häva.`,
    register:
      'Din avstängning registreras också i det nationella registret för självavstängning, så andra licensierade spelbolag stoppar dig också från att spela.',
    durationLegend: 'Hur länge vill du vara avstängd?',
    durations: {
      duration_24h: '24 timmar',
      duration_7d: '7 dagar',
      duration_30d: '30 dagar',
      duration_6m: '6 månader',
      duration_1y: '1 år',
      duration_permanent: 'Permanent',
    } satisfies Record<Duration, string>,
    permanentHint: 'Permanent betyder för alltid: det går aldrig att ångra.',
    continue: 'Fortsätt',
    permanentTitle: 'Stänga av dig permanent?',
    permanentText: (operator: string) =>
      `En permanent avstängning går aldrig att ångra: inte av dig, inte av ${operator} och inte av någon annan.`,
    permanentConfirm: 'Jag förstår att en permanent avstängning aldrig går att ångra',
    permanentSubmit: 'Ja, stäng av mig permanent',
    chooseAnother: 'Välj en annan period',
    codeTitle: 'Titta i din e-post',
    codeSent: (email: string, duration: string) =>
      `Vi har skickat en kod med 6 siffror till ${email}. Skriv in den för att bekräfta din avstängning i ${duration}.`,
    codeSentPermanent: (email: string) =>
      `Vi har skickat en kod med 6 siffror till ${email}. Skriv in den för att bekräfta din permanenta avstängning.`,
    codeExpiresAt: (time: string) => `Koden gäller till den ${time}.`,
    codeLabel: 'Kod från mejlet',
    codeHint: '6 siffror, till exempel 123456',
    confirm: 'Bekräfta min avstängning',
    resend: 'Skicka en ny kod',
    resendFrom: (time: string) => `Du kan be om en ny kod tidigast den ${time}.`,
    doneTitle: 'Du är avstängd',
    doneUntil: (time: string) => `Din avstängning gäller till den ${time}.`,
    donePermanent: 'Din avstängning är permanent.',
    doneNext: 'Så länge den gäller kan du inte logga in, sätta in pengar eller spela.',
  },

  limits: {
    title: 'Dina insättningsgränser',
    intro:
      'En insättningsgräns bestämmer hur mycket du kan sätta in under en period. Sänker du en gräns gäller det direkt. Höjer du en gräns gäller det först efter en väntetid: 24 timmar för upp till dubbla den nuvarande gränsen, 48 timmar för upp till fem gånger den, 7 dagar för mer än så.',
    caption: 'Gränser som gäller nu',
    none: 'Du har inte satt någon insättningsgräns än.',
    period: 'Period',
    limit: 'Gräns',
    deposited: 'Insatt',
    remaining: 'Kvar att sätta in',
    resets: 'Nästa gång utrymme frigörs',
    waiting: 'Väntande ändring',
    noReset: 'Inget insatt under perioden',
    types: {
      limit_daily: 'Per dag (24 timmar)',
      limit_weekly: 'Per vecka (7 dagar)',
      limit_monthly: 'Per månad (30 dagar)',
    } satisfies Record<WindowType, string>,
    pending: (amount: string, time: string) => `Höjs till ${amount} den ${time}`,
    cancel: 'Avbryt den här höjningen',
    formLegend: 'Sätt eller ändra en gräns',
    amountLabel: (currency: string) => `Belopp (${currency})`,
    amountHint: 'Till exempel 250 eller 250,50',
    save: 'Spara gränsen',
    setNow: (period: string, amount: string) => `Din gräns ”${period}” är nu ${amount}.`,
    increaseWaits: (period: string, amount: string, time: string, current: string) =>
      `Din gräns ”${period}” höjs till ${amount} den ${time}, när väntetiden är slut. Fram till dess ligger din gräns kvar på ${current}.`,
    cancelled: (period: string, amount: string) =>
      `Höjningen är avbruten. Din gräns ”${period}” ligger kvar på ${amount}.`,
  },

  errors: {
    chooseDuration: 'Välj hur länge du vill vara avstängd',
    confirmPermanent:
      'Kryssa i rutan för att bekräfta att du förstår att en permanent avstängning aldrig går att ångra',
    enterCode: 'Skriv in koden med 6 siffror från mejlet',
    wrongCode: (left: number) =>
      left === 1
        ? 'Koden stämmer inte. Du har 1 försök kvar.'
        : `Koden stämmer inte. Du har ${left} försök kvar.`,
    lastWrongCode: 'Koden stämmer inte, och det var sista försöket. Be om en ny kod.',
    codeExpired: 'Koden har gått ut. Be om en ny kod.',
    codeLocked: 'För många fel koder har skrivits in. Be om en ny kod.',
    codeNotRequested: 'Välj en period först, så skickar vi en kod till dig.',
    resendTooEarly: (seconds: number) => `Vänta ${seconds} sekunder innan du ber om en ny kod.`,
    tooManyCodes: (minutes: number) =>
      `För många koder har skickats till den här e-postadressen. Försök igen om ${minutes} minuter.`,
    alreadyExcluded: 'Du har redan en avstängning som den här inte kan ersätta.',
    sessionExpired: (operator: string) =>
      `Den här sidan har gått ut. Gå tillbaka till ${operator} och öppna den igen.`,
    sessionInvalid:
      'Den här sidan är inte tillgänglig. Gå tillbaka till webbplatsen du kom från och öppna den igen.',
    sessionCompleted: 'Den här sidan har redan använts.',
    chooseType: 'Välj gränsens period',
    enterAmount: 'Skriv in ett belopp, till exempel 250 eller 250,50',
    belowMinimum: 'Gränsen är för låg. Skriv in ett högre belopp.',
    pendingChange: 'En höjning av den här gränsen väntar redan. Avbryt den innan du ber om en ny.',
    currencyMismatch: 'Dina gränser är satta i en annan valuta. Kontakta kundtjänst.',
    generic: 'Något gick fel. Försök igen, eller gå tillbaka till webbplatsen du kom från.',
  },

  mail: {
    subject: 'Din bekräftelsekod',
    body: (code: string, operator: string, duration: string, minutes: number) =>
      `Din bekräftelsekod är ${code}.\n\nSkriv in den på sidan hos ${operator} för att bekräfta din självavstängning (${duration}). Koden gäller i ${minutes} minuter.\n\nOm du inte har bett om det här kan du bortse från mejlet: ingenting ändras utan koden.`,
  },
};
