import type { Duration } from '../../exclusions/index.js';
import type { LimitType } from '../../limits/index.js';
import type { TimeOutDuration } from '../../time-outs/index.js';
import type { Messages } from './en.js';

/** Dutch (Nederlands). */
export const nl: Messages = {
  language: 'Nederlands',
  errorSummaryTitle: 'Er is een probleem',
  returnTo: (operator: string) => `Terug naar ${operator}`,
  providedBy: (operator: string) => `${operator} biedt deze pagina aan via een compliancedienst.`,
  help: 'Als gokken u of iemand in uw omgeving schade doet, kunt u gratis en vertrouwelijk hulp krijgen bij hulpdiensten in uw land.',
  at: 'UTC',

  exclusion: {
    title: 'Een pauze nemen van gokken',
    intro: (operator: string) =>
      `U kunt uzelf bij ${operator} laten uitsluiten van gokken. Zolang de uitsluiting duurt, kunt u niet inloggen, niet storten en niet spelen. De uitsluiting kan niet worden ingekort of geannuleerd.`,
    register:
      'Uw uitsluiting wordt ook vastgelegd in het landelijke uitsluitingsregister. Daardoor laten ook andere aanbieders met een vergunning u niet meer spelen.',
    durationLegend: 'Hoe lang wilt u uitgesloten worden?',
    durations: {
      duration_24h: '24 uur',
      duration_7d: '7 dagen',
      duration_30d: '30 dagen',
      duration_6m: '6 maanden',
      duration_1y: '1 jaar',
      duration_permanent: 'Permanent',
    } satisfies Record<Duration, string>,
    permanentHint: 'Permanent betekent voor altijd: dit kan nooit meer ongedaan worden gemaakt.',
    continue: 'Doorgaan',
    permanentTitle: 'Uzelf permanent laten uitsluiten?',
    permanentText: (operator: string) =>
      `Een permanente uitsluiting kan nooit ongedaan worden gemaakt: niet door u, niet door ${operator} en ook door niemand anders.`,
    permanentConfirm: 'Ik begrijp dat een permanente uitsluiting nooit ongedaan kan worden gemaakt',
    permanentSubmit: 'Ja, sluit mij permanent uit',
    chooseAnother: 'Een andere periode kiezen',
    codeTitle: 'Kijk in uw e-mail',
    codeSent: (email: string, duration: string) =>
      `We hebben een code van 6 cijfers naar ${email} gestuurd. Vul die in om uw uitsluiting voor ${duration} te bevestigen.`,
    codeSentPermanent: (email: string) =>
      `We hebben een code van 6 cijfers naar ${email} gestuurd. Vul die in om uw permanente uitsluiting te bevestigen.`,
    codeExpiresAt: (time: string) => `De code is geldig tot ${time}.`,
    codeLabel: 'Code uit de e-mail',
    codeHint: '6 cijfers, bijvoorbeeld 123456',
    confirm: 'Mijn uitsluiting bevestigen',
    resend: 'Nieuwe code sturen',
    resendFrom: (time: string) => `U kunt vanaf ${time} een nieuwe code aanvragen.`,
    doneTitle: 'U bent uitgesloten',
    doneUntil: (time: string) => `Uw uitsluiting duurt tot ${time}.`,
    donePermanent: 'Uw uitsluiting is permanent.',
    doneNext: 'Zolang die duurt, kunt u niet inloggen, niet storten en niet spelen.',
  },

  limits: {
    title: 'Uw limieten en pauzes',
    intro:
      'Met limieten houdt u grip op uw stortingen, uw verliezen, uw inzetten en uw speeltijd. Een lagere limiet geldt meteen. Een hogere limiet geldt pas na een wachttijd: 24 uur voor maximaal twee keer de huidige limiet, 48 uur voor maximaal vijf keer, 7 dagen voor meer dan dat.',
    contents: 'Op deze pagina',
    kinds: {
      deposit: {
        heading: 'Stortingslimieten',
        name: 'stortingslimiet',
        intro: 'Hoeveel u in een periode maximaal op uw account kunt storten.',
        none: 'U hebt nog geen stortingslimiet ingesteld.',
        used: 'Gestort',
        remaining: 'Nog te storten',
        noReset: 'Niets gestort in deze periode',
        formLegend: 'Een stortingslimiet instellen of wijzigen',
        save: 'Stortingslimiet opslaan',
      },
      loss: {
        heading: 'Verlieslimieten',
        name: 'verlieslimiet',
        intro: 'Hoeveel u in een periode maximaal kunt verliezen: uw inzetten min wat u terugwint.',
        none: 'U hebt nog geen verlieslimiet ingesteld.',
        used: 'Verloren',
        remaining: 'Ruimte tot de limiet',
        noReset: 'Geen verlies in deze periode',
        formLegend: 'Een verlieslimiet instellen of wijzigen',
        save: 'Verlieslimiet opslaan',
      },
      wager: {
        heading: 'Inzetlimieten',
        name: 'inzetlimiet',
        intro: 'Hoeveel u in een periode in totaal kunt inzetten, of u nu wint of verliest.',
        none: 'U hebt nog geen inzetlimiet ingesteld.',
        used: 'Ingezet',
        remaining: 'Nog in te zetten',
        noReset: 'Niets ingezet in deze periode',
        formLegend: 'Een inzetlimiet instellen of wijzigen',
        save: 'Inzetlimiet opslaan',
      },
      play_time: {
        heading: 'Speeltijdlimieten',
        name: 'speeltijdlimiet',
        intro: 'Hoe lang u in een periode of in één sessie kunt spelen.',
        none: 'U hebt nog geen speeltijdlimiet ingesteld.',
        used: 'Gespeeld',
        remaining: 'Resterende tijd',
        noReset: 'Niet gespeeld in deze periode',
        formLegend: 'Een speeltijdlimiet instellen of wijzigen',
        save: 'Speeltijdlimiet opslaan',
      },
    },
    period: 'Periode',
    limit: 'Limiet',
    resets: 'Eerstvolgende ruimte terug in de limiet',
    waiting: 'Wijziging die wacht',
    types: {
      limit_daily: 'Per dag (24 uur)',
      limit_weekly: 'Per week (7 dagen)',
      limit_monthly: 'Per maand (30 dagen)',
      limit_session: 'Per sessie',
    } satisfies Record<LimitType, string>,
    pending: (amount: string, time: string) => `Stijgt op ${time} naar ${amount}`,
    cancel: 'Deze verhoging annuleren',
    amountLabel: (currency: string) => `Bedrag (${currency})`,
    amountHint: 'Bijvoorbeeld 250 of 250,50',
    timeLegend: 'Tijd',
    timeHint: 'Bijvoorbeeld 1 uur en 30 minuten',
    hours: 'Uren',
    minutes: 'Minuten',
    setNow: (limit: string, period: string, amount: string) => `Uw ${limit} ‘${period}’ is nu ${amount}.`,
    increaseWaits: (limit: string, period: string, amount: string, time: string, current: string) =>
      `Uw ${limit} ‘${period}’ stijgt op ${time} naar ${amount}, na de wachttijd. Tot dan blijft die ${current}.`,
    cancelled: (limit: string, period: string, amount: string) =>
      `De verhoging is geannuleerd. Uw ${limit} ‘${period}’ blijft ${amount}.`,
  },

  timeOut: {
    heading: 'Een pauze nemen',
    intro: (operator: string) =>
      `Met een pauze kunt u bij ${operator} niet spelen, zo lang als u zelf kiest. Is de pauze eenmaal begonnen, dan kan die niet worden ingekort of geannuleerd.`,
    durationLegend: 'Hoe lang wilt u pauzeren?',
    durations: {
      duration_24h: '24 uur',
      duration_7d: '7 dagen',
      duration_30d: '30 dagen',
      duration_6w: '6 weken',
    } satisfies Record<TimeOutDuration, string>,
    continue: 'Doorgaan',
    confirmTitle: (duration: string) => `${duration} pauze nemen?`,
    confirmUntil: (time: string) => `Als u nu begint, duurt uw pauze tot ${time}.`,
    confirmText: (operator: string) =>
      `Tot dan kunt u bij ${operator} niet spelen. Is uw pauze eenmaal begonnen, dan kan die niet worden ingekort of geannuleerd, ook niet als u zich bedenkt.`,
    confirmSubmit: (duration: string) => `Ja, start mijn pauze van ${duration}`,
    back: 'Teruggaan zonder pauze te nemen',
    inForce: (time: string) => `U hebt pauze tot ${time}.`,
    inForceNext: 'Die kan niet worden ingekort of geannuleerd.',
    longerLegend: 'Wilt u een langere pauze?',
    longerHint: 'Een langere pauze begint nu en vervangt uw huidige pauze.',
    started: (time: string) => `Uw pauze is begonnen. Die duurt tot ${time}.`,
  },

  realityCheck: {
    heading: 'Herinneringen tijdens het spelen',
    intro:
      'Terwijl u speelt, laat een herinnering zien hoe lang u al speelt en hoeveel u hebt gewonnen of verloren. U kiest hoe vaak die verschijnt. Herinneringen kunnen niet worden uitgezet.',
    current: (interval: string) => `Tijd tussen herinneringen: ${interval}`,
    yourChoice: 'Dit hebt u zelf gekozen.',
    operatorDefault: (operator: string) => `Dit is de standaardinstelling van ${operator}.`,
    legend: 'Hoeveel tijd wilt u tussen herinneringen?',
    hint: 'Uw keuze geldt voor de sessies die u begint nadat u die hebt opgeslagen. Een sessie die al loopt, houdt haar herinneringen.',
    useDefault: (operator: string, interval: string) =>
      `De standaardinstelling van ${operator} (${interval})`,
    save: 'Herinneringen opslaan',
    saved: (interval: string) =>
      `Opgeslagen. Vanaf uw volgende sessie is de tijd tussen herinneringen ${interval}.`,
    savedDefault: (operator: string, interval: string) =>
      `Opgeslagen. Vanaf uw volgende sessie geldt de standaardinstelling van ${operator}: ${interval} tussen herinneringen.`,
  },

  errors: {
    chooseDuration: 'Kies hoe lang u uitgesloten wilt worden',
    confirmPermanent:
      'Vink het vakje aan om te bevestigen dat u begrijpt dat een permanente uitsluiting nooit ongedaan kan worden gemaakt',
    enterCode: 'Vul de code van 6 cijfers uit de e-mail in',
    wrongCode: (left: number) =>
      left === 1
        ? 'De code klopt niet. U hebt nog 1 poging.'
        : `De code klopt niet. U hebt nog ${left} pogingen.`,
    lastWrongCode: 'De code klopt niet, en dat was de laatste poging. Vraag een nieuwe code aan.',
    codeExpired: 'De code is verlopen. Vraag een nieuwe code aan.',
    codeLocked: 'Er zijn te veel verkeerde codes ingevuld. Vraag een nieuwe code aan.',
    codeNotRequested: 'Kies eerst een periode; daarna sturen we u een code.',
    resendTooEarly: (seconds: number) => `Wacht ${seconds} seconden voordat u een nieuwe code aanvraagt.`,
    tooManyCodes: (minutes: number) =>
      `Er zijn te veel codes naar dit e-mailadres gestuurd. Probeer het over ${minutes} minuten opnieuw.`,
    alreadyExcluded: 'U hebt al een uitsluiting die niet door deze kan worden vervangen.',
    sessionExpired: (operator: string) =>
      `Deze pagina is verlopen. Ga terug naar ${operator} en open de pagina opnieuw.`,
    sessionInvalid:
      'Deze pagina is niet beschikbaar. Ga terug naar de website waar u vandaan kwam en open de pagina opnieuw.',
    sessionCompleted: 'Deze pagina is al gebruikt.',
    chooseType: 'Kies de periode van de limiet',
    enterAmount: 'Vul een bedrag in, bijvoorbeeld 250 of 250,50',
    belowMinimum: 'De limiet is te laag. Vul een hoger bedrag in.',
    enterTime: 'Vul een tijd in uren en minuten in, bijvoorbeeld 1 uur en 30 minuten',
    timeTooShort: 'De limiet is te kort. Vul minstens 5 minuten in.',
    tooLateToCancel: 'Deze verhoging geldt al en kan daarom niet meer worden geannuleerd.',
    chooseBreak: 'Kies hoe lang u wilt pauzeren',
    chooseReminder: 'Kies hoeveel tijd u tussen herinneringen wilt',
    pendingChange: 'Er wacht al een verhoging van deze limiet. Annuleer die voordat u een nieuwe aanvraagt.',
    currencyMismatch:
      'Uw limieten worden in een andere valuta bijgehouden. Neem contact op met de klantenservice.',
    generic: 'Er ging iets mis. Probeer het opnieuw, of ga terug naar de website waar u vandaan kwam.',
  },

  mail: {
    subject: 'Uw bevestigingscode',
    body: (code: string, operator: string, duration: string, minutes: number) =>
      `Uw bevestigingscode is ${code}.\n\nVul deze code in op de pagina van ${operator} om uw zelfuitsluiting te bevestigen (${duration}). De code is ${minutes} minuten geldig.\n\nHebt u hier niet om gevraagd? Negeer dan deze e-mail: zonder de code verandert er niets.`,
  },
};
