import type { Duration } from '../../exclusions/index.js';
import type { LimitType } from '../../limits/index.js';
import type { TimeOutDuration } from '../../time-outs/index.js';
import type { Messages } from './en.js';

/** French (Français). */
export const fr: Messages = {
  language: 'Français',
  errorSummaryTitle: 'Il y a un problème',
  returnTo: (operator: string) => `Retourner sur ${operator}`,
  providedBy: (operator: string) =>
    `${operator} vous propose cette page par l’intermédiaire de son service de conformité.`,
  help: 'Si le jeu vous fait du mal, à vous ou à l’un de vos proches, une aide gratuite et confidentielle est disponible auprès des services d’aide de votre pays.',
  at: 'UTC',

  exclusion: {
    title: 'Faire une pause dans le jeu',
    intro: (operator: string) =>
      `Vous pouvez vous exclure du jeu chez ${operator}. Pendant toute la durée de l’exclusion, vous ne pouvez ni vous connecter, ni déposer d’argent, ni jouer, et l’exclusion ne peut être ni raccourcie ni annulée.`,
    register:
      'Votre exclusion est aussi inscrite dans le registre national d’auto-exclusion : les autres opérateurs agréés vous empêcheront donc aussi de jouer.',
    durationLegend: 'Pendant combien de temps voulez-vous vous exclure ?',
    durations: {
      duration_24h: '24 heures',
      duration_7d: '7 jours',
      duration_30d: '30 jours',
      duration_6m: '6 mois',
      duration_1y: '1 an',
      duration_permanent: 'Définitivement',
    } satisfies Record<Duration, string>,
    permanentHint: 'Définitivement signifie pour toujours : cela ne pourra jamais être annulé.',
    continue: 'Continuer',
    permanentTitle: 'Vous exclure définitivement ?',
    permanentText: (operator: string) =>
      `Une exclusion définitive ne pourra jamais être annulée : ni par vous, ni par ${operator}, ni par personne d’autre.`,
    permanentConfirm: 'Je comprends qu’une exclusion définitive ne pourra jamais être annulée',
    permanentSubmit: 'Oui, m’exclure définitivement',
    chooseAnother: 'Choisir une autre durée',
    codeTitle: 'Consultez vos e-mails',
    codeSent: (email: string, duration: string) =>
      `Nous avons envoyé un code à 6 chiffres à ${email}. Saisissez-le pour confirmer votre exclusion pour ${duration}.`,
    codeSentPermanent: (email: string) =>
      `Nous avons envoyé un code à 6 chiffres à ${email}. Saisissez-le pour confirmer votre exclusion définitive.`,
    codeExpiresAt: (time: string) => `Le code est valable jusqu’au ${time}.`,
    codeLabel: 'Code reçu par e-mail',
    codeHint: '6 chiffres, par exemple 123456',
    confirm: 'Confirmer mon exclusion',
    resend: 'Envoyer un nouveau code',
    resendFrom: (time: string) => `Vous pourrez demander un nouveau code à partir du ${time}.`,
    doneTitle: 'Votre exclusion est en place',
    doneUntil: (time: string) => `Votre exclusion dure jusqu’au ${time}.`,
    donePermanent: 'Votre exclusion est définitive.',
    doneNext: 'Tant qu’elle dure, vous ne pourrez ni vous connecter, ni déposer d’argent, ni jouer.',
  },

  limits: {
    title: 'Vos limites et vos pauses',
    intro:
      'Les limites vous aident à garder le contrôle de vos dépôts, de vos pertes, de vos mises et de votre temps de jeu. Une baisse de limite s’applique immédiatement. Une hausse ne s’applique qu’après un délai de réflexion : 24 heures jusqu’à deux fois la limite actuelle, 48 heures jusqu’à cinq fois, 7 jours au-delà.',
    contents: 'Sur cette page',
    kinds: {
      deposit: {
        heading: 'Limites de dépôt',
        name: 'limite de dépôt',
        intro: 'Le montant maximum que vous pouvez déposer sur votre compte sur une période.',
        none: 'Vous n’avez pas encore fixé de limite de dépôt.',
        used: 'Déposé',
        remaining: 'Reste à déposer',
        noReset: 'Aucun dépôt sur la période',
        formLegend: 'Fixer ou modifier une limite de dépôt',
        save: 'Enregistrer la limite de dépôt',
      },
      loss: {
        heading: 'Limites de pertes',
        name: 'limite de pertes',
        intro:
          'Le montant maximum que vous pouvez perdre sur une période : vos mises, moins ce que vous regagnez.',
        none: 'Vous n’avez pas encore fixé de limite de pertes.',
        used: 'Perdu',
        remaining: 'Reste avant la limite',
        noReset: 'Aucune perte sur la période',
        formLegend: 'Fixer ou modifier une limite de pertes',
        save: 'Enregistrer la limite de pertes',
      },
      wager: {
        heading: 'Limites de mises',
        name: 'limite de mises',
        intro:
          'Le montant total que vous pouvez miser sur une période, que vous gagniez ou que vous perdiez.',
        none: 'Vous n’avez pas encore fixé de limite de mises.',
        used: 'Misé',
        remaining: 'Reste à miser',
        noReset: 'Aucune mise sur la période',
        formLegend: 'Fixer ou modifier une limite de mises',
        save: 'Enregistrer la limite de mises',
      },
      play_time: {
        heading: 'Limites de temps de jeu',
        name: 'limite de temps de jeu',
        intro: 'Combien de temps vous pouvez jouer sur une période, ou en une seule session.',
        none: 'Vous n’avez pas encore fixé de limite de temps de jeu.',
        used: 'Joué',
        remaining: 'Temps restant',
        noReset: 'Aucun jeu sur la période',
        formLegend: 'Fixer ou modifier une limite de temps de jeu',
        save: 'Enregistrer la limite de temps de jeu',
      },
    },
    period: 'Période',
    limit: 'Limite',
    resets: 'Prochain montant libéré dans la limite',
    waiting: 'Modification en attente',
    types: {
      limit_daily: 'Quotidienne (24 heures)',
      limit_weekly: 'Hebdomadaire (7 jours)',
      limit_monthly: 'Mensuelle (30 jours)',
      limit_session: 'Par session',
    } satisfies Record<LimitType, string>,
    pending: (amount: string, time: string) => `Passe à ${amount} le ${time}`,
    cancel: 'Annuler cette hausse',
    amountLabel: (currency: string) => `Montant (${currency})`,
    amountHint: 'Par exemple 250 ou 250,50',
    timeLegend: 'Durée',
    timeHint: 'Par exemple 1 heure et 30 minutes',
    hours: 'Heures',
    minutes: 'Minutes',
    setNow: (limit: string, period: string, amount: string) =>
      `Votre ${limit} « ${period} » est maintenant de ${amount}.`,
    increaseWaits: (limit: string, period: string, amount: string, time: string, current: string) =>
      `Votre ${limit} « ${period} » passera à ${amount} le ${time}, à la fin de son délai de réflexion. D’ici là, elle reste de ${current}.`,
    cancelled: (limit: string, period: string, amount: string) =>
      `La hausse est annulée. Votre ${limit} « ${period} » reste de ${amount}.`,
  },

  timeOut: {
    heading: 'Faire une pause',
    intro: (operator: string) =>
      `Une pause vous empêche de jouer chez ${operator} pendant la durée que vous choisissez. Une fois commencée, elle ne peut être ni raccourcie ni annulée.`,
    durationLegend: 'Combien de temps voulez-vous que votre pause dure ?',
    durations: {
      duration_24h: '24 heures',
      duration_7d: '7 jours',
      duration_30d: '30 jours',
      duration_6w: '6 semaines',
    } satisfies Record<TimeOutDuration, string>,
    continue: 'Continuer',
    confirmTitle: (duration: string) => `Faire une pause de ${duration} ?`,
    confirmUntil: (time: string) => `Si vous la commencez maintenant, votre pause dure jusqu’au ${time}.`,
    confirmText: (operator: string) =>
      `Jusque-là, vous ne pourrez pas jouer chez ${operator}. Une fois commencée, votre pause ne peut être ni raccourcie ni annulée, même si vous changez d’avis.`,
    confirmSubmit: (duration: string) => `Oui, commencer ma pause de ${duration}`,
    back: 'Revenir sans faire de pause',
    inForce: (time: string) => `Vous êtes en pause jusqu’au ${time}.`,
    inForceNext: 'Elle ne peut être ni raccourcie ni annulée.',
    longerLegend: 'Voulez-vous une pause plus longue ?',
    longerHint: 'Une pause plus longue commence maintenant et remplace votre pause actuelle.',
    started: (time: string) => `Votre pause a commencé. Elle dure jusqu’au ${time}.`,
  },

  realityCheck: {
    heading: 'Rappels pendant le jeu',
    intro:
      'Pendant que vous jouez, un rappel vous indique depuis combien de temps vous jouez et combien vous avez gagné ou perdu. Vous choisissez à quelle fréquence il apparaît. Les rappels ne peuvent pas être désactivés.',
    current: (interval: string) => `Temps entre deux rappels : ${interval}`,
    yourChoice: 'Vous l’avez choisi vous-même.',
    operatorDefault: (operator: string) => `C’est le réglage par défaut de ${operator}.`,
    legend: 'Combien de temps voulez-vous entre deux rappels ?',
    hint: 'Votre choix s’applique aux sessions que vous commencez après l’avoir enregistré. Une session déjà en cours garde ses rappels.',
    useDefault: (operator: string, interval: string) => `Le réglage par défaut de ${operator} (${interval})`,
    save: 'Enregistrer les rappels',
    saved: (interval: string) =>
      `C’est enregistré. À partir de votre prochaine session, le temps entre deux rappels sera de ${interval}.`,
    savedDefault: (operator: string, interval: string) =>
      `C’est enregistré. À partir de votre prochaine session, le réglage par défaut de ${operator} s’applique : ${interval} entre deux rappels.`,
  },

  errors: {
    chooseDuration: 'Choisissez pendant combien de temps vous voulez vous exclure',
    confirmPermanent:
      'Cochez la case pour confirmer que vous comprenez qu’une exclusion définitive ne pourra jamais être annulée',
    enterCode: 'Saisissez le code à 6 chiffres reçu par e-mail',
    wrongCode: (left: number) =>
      left === 1
        ? 'Le code n’est pas correct. Il vous reste 1 essai.'
        : `Le code n’est pas correct. Il vous reste ${left} essais.`,
    lastWrongCode: 'Le code n’est pas correct, et c’était le dernier essai. Demandez un nouveau code.',
    codeExpired: 'Le code a expiré. Demandez un nouveau code.',
    codeLocked: 'Trop de codes erronés ont été saisis. Demandez un nouveau code.',
    codeNotRequested: 'Choisissez d’abord une durée ; nous vous enverrons ensuite un code.',
    resendTooEarly: (seconds: number) => `Attendez ${seconds} secondes avant de demander un nouveau code.`,
    tooManyCodes: (minutes: number) =>
      `Trop de codes ont été envoyés à cette adresse e-mail. Réessayez dans ${minutes} minutes.`,
    alreadyExcluded: 'Vous avez déjà une exclusion que celle-ci ne peut pas remplacer.',
    sessionExpired: (operator: string) => `Cette page a expiré. Retournez sur ${operator} et rouvrez-la.`,
    sessionInvalid: 'Cette page n’est pas disponible. Retournez sur le site d’où vous venez et rouvrez-la.',
    sessionCompleted: 'Cette page a déjà été utilisée.',
    chooseType: 'Choisissez la période de la limite',
    enterAmount: 'Saisissez un montant, par exemple 250 ou 250,50',
    belowMinimum: 'La limite est trop basse. Saisissez un montant plus élevé.',
    enterTime: 'Saisissez une durée en heures et en minutes, par exemple 1 heure et 30 minutes',
    timeTooShort: 'La limite est trop courte. Saisissez au moins 5 minutes.',
    tooLateToCancel: 'Cette hausse s’applique déjà : elle ne peut plus être annulée.',
    chooseBreak: 'Choisissez la durée de votre pause',
    chooseReminder: 'Choisissez combien de temps vous voulez entre deux rappels',
    pendingChange:
      'Une hausse de cette limite est déjà en attente. Annulez-la avant d’en demander une autre.',
    currencyMismatch: 'Vos limites sont tenues dans une autre devise. Contactez le service client.',
    generic: 'Une erreur s’est produite. Réessayez, ou retournez sur le site d’où vous venez.',
  },

  mail: {
    subject: 'Votre code de confirmation',
    body: (code: string, operator: string, duration: string, minutes: number) =>
      `Votre code de confirmation est ${code}.\n\nSaisissez-le sur la page de ${operator} pour confirmer votre auto-exclusion (${duration}). Le code est valable ${minutes} minutes.\n\nSi vous n’avez rien demandé, ignorez cet e-mail : rien ne change sans le code.`,
  },
};
