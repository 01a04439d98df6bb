import type { Duration } from '../../exclusions/index.js';
import type { LimitType } from '../../limits/index.js';
import type { TimeOutDuration } from '../../time-outs/index.js';
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
    title: 'I suoi limiti e le sue pause',
    intro:
      'I limiti la aiutano a tenere sotto controllo i suoi depositi, le sue perdite, le sue puntate e il suo tempo di gioco. Se abbassa un limite, la modifica vale subito. Se lo alza, la modifica vale solo dopo un periodo di attesa: 24 ore fino al doppio del limite attuale, 48 ore fino a cinque volte, 7 giorni oltre.',
    contents: 'In questa pagina',
    kinds: {
      deposit: {
        heading: 'Limiti di deposito',
        name: 'limite di deposito',
        intro: 'Quanto può depositare sul suo conto in un periodo.',
        none: 'Non ha ancora impostato un limite di deposito.',
        used: 'Depositato',
        remaining: 'Ancora depositabile',
        noReset: 'Nessun deposito nel periodo',
        formLegend: 'Impostare o modificare un limite di deposito',
        save: 'Salva il limite di deposito',
      },
      loss: {
        heading: 'Limiti di perdita',
        name: 'limite di perdita',
        intro: 'Quanto può perdere in un periodo: le sue puntate, meno quello che vince.',
        none: 'Non ha ancora impostato un limite di perdita.',
        used: 'Perso',
        remaining: 'Margine prima del limite',
        noReset: 'Nessuna perdita nel periodo',
        formLegend: 'Impostare o modificare un limite di perdita',
        save: 'Salva il limite di perdita',
      },
      wager: {
        heading: 'Limiti di puntata',
        name: 'limite di puntata',
        intro: 'Quanto può puntare in totale in un periodo, che vinca o che perda.',
        none: 'Non ha ancora impostato un limite di puntata.',
        used: 'Puntato',
        remaining: 'Ancora puntabile',
        noReset: 'Nessuna puntata nel periodo',
        formLegend: 'Impostare o modificare un limite di puntata',
        save: 'Salva il limite di puntata',
      },
      play_time: {
        heading: 'Limiti di tempo di gioco',
        name: 'limite di tempo di gioco',
        intro: 'Per quanto tempo può giocare in un periodo o in una singola sessione.',
        none: 'Non ha ancora impostato un limite di tempo di gioco.',
        used: 'Giocato',
        remaining: 'Tempo rimasto',
        noReset: 'Nessun gioco nel periodo',
        formLegend: 'Impostare o modificare un limite di tempo di gioco',
        save: 'Salva il limite di tempo di gioco',
      },
    },
    period: 'Periodo',
    limit: 'Limite',
    resets: 'Prossimo importo di nuovo disponibile',
    waiting: 'Modifica in attesa',
    types: {
      limit_daily: 'Giornaliero (24 ore)',
      limit_weekly: 'Settimanale (7 giorni)',
      limit_monthly: 'Mensile (30 giorni)',
      limit_session: 'Per sessione',
    } satisfies Record<LimitType, string>,
    pending: (amount: string, time: string) => `Sale a ${amount} il ${time}`,
    cancel: 'Annulla questo aumento',
    amountLabel: (currency: string) => `Importo (${currency})`,
    amountHint: 'Ad esempio 250 o 250,50',
    timeLegend: 'Tempo',
    timeHint: 'Ad esempio 1 ora e 30 minuti',
    hours: 'Ore',
    minutes: 'Minuti',
    setNow: (limit: string, period: string, amount: string) =>
      `Il suo ${limit} «${period}» ora è di ${amount}.`,
    increaseWaits: (limit: string, period: string, amount: string, time: string, current: string) =>
      `Il suo ${limit} «${period}» salirà a ${amount} il ${time}, al termine del periodo di attesa. Fino ad allora resta di ${current}.`,
    cancelled: (limit: string, period: string, amount: string) =>
      `L’aumento è annullato. Il suo ${limit} «${period}» resta di ${amount}.`,
  },

  timeOut: {
    heading: 'Fare una pausa',
    intro: (operator: string) =>
      `Una pausa le impedisce di giocare con ${operator} per il tempo che sceglie. Una volta iniziata, non può essere accorciata né annullata.`,
    durationLegend: 'Quanto vuole che duri la sua pausa?',
    durations: {
      duration_24h: '24 ore',
      duration_7d: '7 giorni',
      duration_30d: '30 giorni',
      duration_6w: '6 settimane',
    } satisfies Record<TimeOutDuration, string>,
    continue: 'Continua',
    confirmTitle: (duration: string) => `Fare una pausa di ${duration}?`,
    confirmUntil: (time: string) => `Se la inizia ora, la sua pausa dura fino al ${time}.`,
    confirmText: (operator: string) =>
      `Fino ad allora non potrà giocare con ${operator}. Una volta iniziata, la sua pausa non può essere accorciata né annullata, nemmeno se cambia idea.`,
    confirmSubmit: (duration: string) => `Sì, inizia la mia pausa di ${duration}`,
    back: 'Torna indietro senza fare una pausa',
    inForce: (time: string) => `È in pausa fino al ${time}.`,
    inForceNext: 'Non può essere accorciata né annullata.',
    longerLegend: 'Vuole una pausa più lunga?',
    longerHint: 'Una pausa più lunga inizia subito e sostituisce quella in corso.',
    started: (time: string) => `La sua pausa è iniziata. Dura fino al ${time}.`,
  },

  realityCheck: {
    heading: 'Promemoria di gioco',
    intro:
      'Mentre gioca, un promemoria le indica da quanto tempo sta giocando e quanto ha vinto o perso. Sceglie lei ogni quanto compare. I promemoria non si possono disattivare.',
    current: (interval: string) => `Intervallo tra i promemoria: ${interval}`,
    yourChoice: 'L’ha scelto lei.',
    operatorDefault: (operator: string) => `È l’impostazione predefinita di ${operator}.`,
    legend: 'Quale intervallo vuole tra i promemoria?',
    hint: 'La sua scelta vale per le sessioni che inizia dopo averla salvata. Una sessione già in corso mantiene i suoi promemoria.',
    useDefault: (operator: string, interval: string) =>
      `L’impostazione predefinita di ${operator} (${interval})`,
    save: 'Salva i promemoria',
    saved: (interval: string) =>
      `Salvato. Dalla sua prossima sessione, l’intervallo tra i promemoria sarà di ${interval}.`,
    savedDefault: (operator: string, interval: string) =>
      `Salvato. Dalla sua prossima sessione vale l’impostazione predefinita di ${operator}: un intervallo di ${interval} tra i promemoria.`,
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
    enterTime: 'Inserisca un tempo in ore e minuti, ad esempio 1 ora e 30 minuti',
    timeTooShort: 'Il limite è troppo breve. Inserisca almeno 5 minuti.',
    tooLateToCancel: 'Questo aumento è già in vigore, quindi non può più essere annullato.',
    chooseBreak: 'Scelga quanto vuole che duri la sua pausa',
    chooseReminder: 'Scelga l’intervallo che vuole tra i promemoria',
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
