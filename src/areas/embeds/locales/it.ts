import type { Duration } from '../../exclusions/index.js';
import type { WindowType } from '../../limits/index.js';
import type { Messages } from './en.js';

/** Italian (Italiano). */
export const it: Messages = {
  language: 'Italiano',
  errorSummaryTitle: 'Si è verificato un problema',
  returnTo: (operator: string) => `Torna a ${operator}`,
  providedBy: (operator: string) =>
    `${operator} offre questa pagina tramite il proprio servizio di compliance.`,
  help: 'Se il gioco d’azzardo sta facendo del male a lei o a una persona a lei vicina, può ricevere un aiuto gratuito e riservato dai servizi di supporto del suo Paese.',
  at: 'UTC',

  exclusion: {
    title: 'Prendersi una pausa dal gioco',
    intro: (operator: string) =>
      `Può autoescludersi dal gioco su ${operator}. Finché dura l’autoesclusione non potrà accedere, fare depositi né giocare, e l’autoesclusione non potrà essere né accorciata né revocata.`,
    register:
      'La sua autoesclusione viene registrata anche nel registro nazionale delle autoesclusioni: per questo anche gli altri operatori autorizzati le impediranno di giocare.',
    durationLegend: 'Per quanto tempo vuole autoescludersi?',
    durations: {
      duration_24h: '24 ore',
      duration_7d: '7 giorni',
      duration_30d: '30 giorni',
      duration_6m: '6 mesi',
      duration_1y: '1 anno',
      duration_permanent: 'In modo permanente',
    } satisfies Record<Duration, string>,
    permanentHint: 'In modo permanente significa per sempre: non si potrà mai tornare indietro.',
    continue: 'Continua',
    permanentTitle: 'Autoescludersi in modo permanente?',
    permanentText: (operator: string) =>
      `Un’autoesclusione permanente non potrà mai essere annullata: né da lei, né da ${operator}, né da nessun altro.`,
    permanentConfirm: 'Ho capito che un’autoesclusione permanente non potrà mai essere annullata',
    permanentSubmit: 'Sì, autoescludimi in modo permanente',
    chooseAnother: 'Scegliere un altro periodo',
    codeTitle: 'Controlli la sua email',
    codeSent: (email: string, duration: string) =>
      `Abbiamo inviato un codice di 6 cifre a ${email}. Lo inserisca per confermare la sua autoesclusione per ${duration}.`,
    codeSentPermanent: (email: string) =>
      `Abbiamo inviato un codice di 6 cifre a ${email}. Lo inserisca per confermare la sua autoesclusione permanente.`,
    codeExpiresAt: (time: string) => `Il codice è valido fino al ${time}.`,
    codeLabel: 'Codice ricevuto via email',
    codeHint: '6 cifre, ad esempio 123456',
    confirm: 'Conferma la mia autoesclusione',
    resend: 'Invia un nuovo codice',
    resendFrom: (time: string) => `Potrà chiedere un nuovo codice a partire dal ${time}.`,
    doneTitle: 'L’autoesclusione è attiva',
    doneUntil: (time: string) => `La sua autoesclusione dura fino al ${time}.`,
    donePermanent: 'La sua autoesclusione è permanente.',
    doneNext: 'Finché dura, non potrà accedere, fare depositi né giocare.',
  },

  limits: {
    title: 'I suoi limiti di deposito',
    intro:
      'Un limite di deposito fissa quanto può depositare al massimo in un periodo. Se abbassa un limite, la modifica vale subito. Se lo alza, la modifica vale solo dopo un periodo di attesa: 24 ore fino al doppio del limite attuale, 48 ore fino a cinque volte, 7 giorni oltre.',
    caption: 'Limiti in vigore',
    none: 'Non ha ancora impostato un limite di deposito.',
    period: 'Periodo',
    limit: 'Limite',
    deposited: 'Depositato',
    remaining: 'Ancora depositabile',
    resets: 'Prossimo importo di nuovo disponibile',
    waiting: 'Modifica in attesa',
    noReset: 'Nessun deposito nel periodo',
    types: {
      limit_daily: 'Giornaliero (24 ore)',
      limit_weekly: 'Settimanale (7 giorni)',
      limit_monthly: 'Mensile (30 giorni)',
    } satisfies Record<WindowType, string>,
    pending: (amount: string, time: string) => `Sale a ${amount} il ${time}`,
    cancel: 'Annulla questo aumento',
    formLegend: 'Impostare o modificare un limite',
    amountLabel: (currency: string) => `Importo (${currency})`,
    amountHint: 'Ad esempio 250 o 250,50',
    save: 'Salva il limite',
    setNow: (period: string, amount: string) => `Il suo limite «${period}» ora è di ${amount}.`,
    increaseWaits: (period: string, amount: string, time: string, current: string) =>
      `Il suo limite «${period}» salirà a ${amount} il ${time}, al termine del periodo di attesa. Fino ad allora il limite resta di ${current}.`,
    cancelled: (period: string, amount: string) =>
      `L’aumento è annullato. Il suo limite «${period}» resta di ${amount}.`,
  },

  errors: {
    chooseDuration: 'Scelga per quanto tempo vuole autoescludersi',
    confirmPermanent:
      'Spunti la casella per confermare di aver capito che un’autoesclusione permanente non potrà mai essere annullata',
    enterCode: 'Inserisca il codice di 6 cifre ricevuto via email',
    wrongCode: (left: number) =>
      left === 1
        ? 'Il codice non è corretto. Le resta 1 tentativo.'
        : `Il codice non è corretto. Le restano ${left} tentativi.`,
    lastWrongCode: 'Il codice non è corretto, e questo era l’ultimo tentativo. Chieda un nuovo codice.',
    codeExpired: 'Il codice è scaduto. Chieda un nuovo codice.',
    codeLocked: 'Sono stati inseriti troppi codici errati. Chieda un nuovo codice.',
    codeNotRequested: 'Scelga prima un periodo; poi le invieremo un codice.',
    resendTooEarly: (seconds: number) => `Attenda ${seconds} secondi prima di chiedere un nuovo codice.`,
    tooManyCodes: (minutes: number) =>
      `Sono stati inviati troppi codici a questo indirizzo email. Riprovi tra ${minutes} minuti.`,
    alreadyExcluded: 'Ha già un’autoesclusione che questa non può sostituire.',
    sessionExpired: (operator: string) => `Questa pagina è scaduta. Torni a ${operator} e la apra di nuovo.`,
    sessionInvalid: 'Questa pagina non è disponibile. Torni al sito da cui proviene e la apra di nuovo.',
    sessionCompleted: 'Questa pagina è già stata utilizzata.',
    chooseType: 'Scelga il periodo del limite',
    enterAmount: 'Inserisca un importo, ad esempio 250 o 250,50',
    belowMinimum: 'Il limite è troppo basso. Inserisca un importo più alto.',
    pendingChange: 'Un aumento di questo limite è già in attesa. Lo annulli prima di chiederne un altro.',
    currencyMismatch: 'I suoi limiti sono gestiti in un’altra valuta. Contatti l’assistenza clienti.',
    generic: 'Qualcosa è andato storto. Riprovi, oppure torni al sito da cui proviene.',
  },

  mail: {
    subject: 'Il suo codice di conferma',
    body: (code: string, operator: string, duration: string, minutes: number) =>
      `Il suo codice di conferma è ${code}.\n\nLo inserisca nella pagina di ${operator} per confermare la sua autoesclusione (${duration}). Il codice è valido per ${minutes} minuti.\n\nSe non l’ha richiesto lei, ignori questa email: senza il codice non cambia nulla.`,
  },
};
