import type { Duration } from '../../exclusions/index.js';
import type { LimitType } from '../../limits/index.js';
import type { TimeOutDuration } from '../../time-outs/index.js';
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
    title: 'Dina gränser och pauser',
    intro:
      'Gränser hjälper dig att ha kontroll över dina insättningar, dina förluster, dina insatser och din speltid. Sänker du en gräns gäller det direkt. Höjer du en gräns gäller det först efter en väntetid: 24 timmar för upp till dubbla den nuvarande gränsen, 48 timmar för upp till fem gånger den, 7 dagar för mer än så.',
    contents: 'På den här sidan',
    kinds: {
      deposit: {
        heading: 'Insättningsgränser',
        name: 'insättningsgräns',
        intro: 'Hur mycket du kan sätta in på ditt konto under en period.',
        none: 'Du har inte satt någon insättningsgräns än.',
        used: 'Insatt',
        remaining: 'Kvar att sätta in',
        noReset: 'Inget insatt under perioden',
        formLegend: 'Sätt eller ändra en insättningsgräns',
        save: 'Spara insättningsgränsen',
      },
      loss: {
        heading: 'Förlustgränser',
        name: 'förlustgräns',
        intro: 'Hur mycket du kan förlora under en period: det du satsar, minus det du vinner tillbaka.',
        none: 'Du har inte satt någon förlustgräns än.',
        used: 'Förlorat',
        remaining: 'Kvar till gränsen',
        noReset: 'Inga förluster under perioden',
        formLegend: 'Sätt eller ändra en förlustgräns',
        save: 'Spara förlustgränsen',
      },
      wager: {
        heading: 'Insatsgränser',
        name: 'insatsgräns',
        intro: 'Hur mycket du totalt kan satsa under en period, oavsett om du vinner eller förlorar.',
        none: 'Du har inte satt någon insatsgräns än.',
        used: 'Satsat',
        remaining: 'Kvar att satsa',
        noReset: 'Inget satsat under perioden',
        formLegend: 'Sätt eller ändra en insatsgräns',
        save: 'Spara insatsgränsen',
      },
      play_time: {
        heading: 'Speltidsgränser',
        name: 'speltidsgräns',
        intro: 'Hur länge du kan spela under en period eller under en enda spelsession.',
        none: 'Du har inte satt någon speltidsgräns än.',
        used: 'Spelat',
        remaining: 'Tid kvar',
        noReset: 'Inget spel under perioden',
        formLegend: 'Sätt eller ändra en speltidsgräns',
        save: 'Spara speltidsgränsen',
      },
    },
    period: 'Period',
    limit: 'Gräns',
    resets: 'Nästa gång utrymme frigörs',
    waiting: 'Väntande ändring',
    types: {
      limit_daily: 'Per dag (24 timmar)',
      limit_weekly: 'Per vecka (7 dagar)',
      limit_monthly: 'Per månad (30 dagar)',
      limit_session: 'Per spelsession',
    } satisfies Record<LimitType, string>,
    pending: (amount: string, time: string) => `Höjs till ${amount} den ${time}`,
    cancel: 'Avbryt den här höjningen',
    amountLabel: (currency: string) => `Belopp (${currency})`,
    amountHint: 'Till exempel 250 eller 250,50',
    timeLegend: 'Tid',
    timeHint: 'Till exempel 1 timme och 30 minuter',
    hours: 'Timmar',
    minutes: 'Minuter',
    setNow: (limit: string, period: string, amount: string) => `Din ${limit} ”${period}” är nu ${amount}.`,
    increaseWaits: (limit: string, period: string, amount: string, time: string, current: string) =>
      `Din ${limit} ”${period}” höjs till ${amount} den ${time}, när väntetiden är slut. Fram till dess ligger den kvar på ${current}.`,
    cancelled: (limit: string, period: string, amount: string) =>
      `Höjningen är avbruten. Din ${limit} ”${period}” ligger kvar på ${amount}.`,
  },

  timeOut: {
    heading: 'Ta en paus',
    intro: (operator: string) =>
      `En paus gör att du inte kan spela hos ${operator} under den tid du väljer. När pausen har börjat kan den inte kortas eller avbrytas.`,
    durationLegend: 'Hur lång ska din paus vara?',
    durations: {
      duration_24h: '24 timmar',
      duration_7d: '7 dagar',
      duration_30d: '30 dagar',
      duration_6w: '6 veckor',
    } satisfies Record<TimeOutDuration, string>,
    continue: 'Fortsätt',
    confirmTitle: (duration: string) => `Ta en paus på ${duration}?`,
    confirmUntil: (time: string) => `Om du börjar den nu varar din paus till den ${time}.`,
    confirmText: (operator: string) =>
      `Fram till dess kan du inte spela hos ${operator}. När pausen har börjat kan den inte kortas eller avbrytas, inte ens om du ångrar dig.`,
    confirmSubmit: (duration: string) => `Ja, börja min paus på ${duration}`,
    back: 'Gå tillbaka utan att ta en paus',
    inForce: (time: string) => `Du har paus till den ${time}.`,
    inForceNext: 'Den kan inte kortas eller avbrytas.',
    longerLegend: 'Vill du ha en längre paus?',
    longerHint: 'En längre paus börjar nu och ersätter den paus du har.',
    started: (time: string) => `Din paus har börjat. Den varar till den ${time}.`,
  },

  realityCheck: {
    heading: 'Påminnelser under spel',
    intro:
      'Medan du spelar visar en påminnelse hur länge du har spelat och hur mycket du har vunnit eller förlorat. Du väljer hur ofta den kommer. Påminnelserna går inte att stänga av.',
    current: (interval: string) => `Tid mellan påminnelserna: ${interval}`,
    yourChoice: 'Det här har du valt själv.',
    operatorDefault: (operator: string) => `Det här är standardinställningen hos ${operator}.`,
    legend: 'Hur lång tid vill du ha mellan påminnelserna?',
    hint: 'Ditt val gäller de spelsessioner du startar efter att du har sparat det. En spelsession som redan pågår behåller sina påminnelser.',
    useDefault: (operator: string, interval: string) => `Standardinställningen hos ${operator} (${interval})`,
    save: 'Spara påminnelserna',
    saved: (interval: string) =>
      `Sparat. Från och med din nästa spelsession är tiden mellan påminnelserna ${interval}.`,
    savedDefault: (operator: string, interval: string) =>
      `Sparat. Från och med din nästa spelsession gäller standardinställningen hos ${operator}: ${interval} mellan påminnelserna.`,
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
    enterTime: 'Skriv en tid i timmar och minuter, till exempel 1 timme och 30 minuter',
    timeTooShort: 'Gränsen är för kort. Skriv minst 5 minuter.',
    tooLateToCancel: 'Den här höjningen gäller redan och kan därför inte avbrytas längre.',
    chooseBreak: 'Välj hur lång din paus ska vara',
    chooseReminder: 'Välj hur lång tid du vill ha mellan påminnelserna',
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
