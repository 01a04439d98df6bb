import type { Duration } from '../../exclusions/index.js';
import type { LimitKind, LimitType } from '../../limits/index.js';
import type { TimeOutDuration } from '../../time-outs/index.js';

/** What each kind of limit is called and shows on the page. */
interface KindWords {
  heading: string;
  /** The limit's name inside a sentence: "Your deposit limit “Daily” is now …". */
  name: string;
  intro: string;
  none: string;
  used: string;
  remaining: string;
  noReset: string;
  formLegend: string;
  save: string;
}

/**
 * Every word the embeds and their email show, in English: the shape every other language's file implements. Plain
 * words for a player who may be in distress: what happens, what cannot be undone, what to do next.
 */
export const en = {
  language: 'English',
  errorSummaryTitle: 'There is a problem',
  returnTo: (operator: string) => `Return to ${operator}`,
  providedBy: (operator: string) => `${operator} provides this page through its compliance service.`,
  help: 'If gambling is harming you or someone close to you, free and confidential help is available from support services in your country.',
  at: 'UTC',

  exclusion: {
    title: 'Take a break from gambling',
    intro: (operator: string) =>
      `You can exclude yourself from gambling with ${operator}. While the exclusion lasts you cannot log in, deposit or play, and it cannot be shortened or cancelled.`,
    register:
      'Your exclusion is also recorded in the national self-exclusion register, so other licensed operators will stop you playing too.',
    durationLegend: 'How long do you want to be excluded?',
    durations: {
      duration_24h: '24 hours',
      duration_7d: '7 days',
      duration_30d: '30 days',
      duration_6m: '6 months',
      duration_1y: '1 year',
      duration_permanent: 'Permanently',
    } satisfies Record<Duration, string>,
    permanentHint: 'Permanently means for ever: it can never be undone.',
    continue: 'Continue',
    permanentTitle: 'Exclude yourself permanently?',
    permanentText: (operator: string) =>
      `A permanent exclusion can never be undone: not by you, not by ${operator}, not by anyone else.`,
    permanentConfirm: 'I understand that a permanent exclusion can never be undone',
    permanentSubmit: 'Yes, exclude me permanently',
    chooseAnother: 'Choose another period',
    codeTitle: 'Check your email',
    codeSent: (email: string, duration: string) =>
      `We have sent a 6-digit code to ${email}. Enter it to confirm your exclusion for ${duration}.`,
    codeSentPermanent: (email: string) =>
      `We have sent a 6-digit code to ${email}. Enter it to confirm your permanent exclusion.`,
    codeExpiresAt: (time: string) => `The code works until ${time}.`,
    codeLabel: 'Code from the email',
    codeHint: '6 digits, for example 123456',
    confirm: 'Confirm my exclusion',
    resend: 'Send a new code',
    resendFrom: (time: string) => `You can ask for a new code from ${time}.`,
    doneTitle: 'You are excluded',
    doneUntil: (time: string) => `Your exclusion runs until ${time}.`,
    donePermanent: 'Your exclusion is permanent.',
    doneNext: 'You will not be able to log in, deposit or play while it lasts.',
  },

  limits: {
    title: 'Your limits and breaks',
    intro:
      'Limits help you stay in control of your deposits, your losses, your stakes and your time. Lowering a limit takes effect at once. Raising one takes effect only after a cooling-off period: 24 hours for up to twice the current limit, 48 hours for up to five times, 7 days for more than that.',
    contents: 'On this page',
    kinds: {
      deposit: {
        heading: 'Deposit limits',
        name: 'deposit limit',
        intro: 'How much you can deposit into your account over a period.',
        none: 'You have not set a deposit limit yet.',
        used: 'Deposited',
        remaining: 'Left to deposit',
        noReset: 'Nothing deposited in the period',
        formLegend: 'Set or change a deposit limit',
        save: 'Save deposit limit',
      },
      loss: {
        heading: 'Loss limits',
        name: 'loss limit',
        intro: 'How much you can lose over a period: what you stake, less what you win back.',
        none: 'You have not set a loss limit yet.',
        used: 'Lost',
        remaining: 'Left before the limit',
        noReset: 'No losses in the period',
        formLegend: 'Set or change a loss limit',
        save: 'Save loss limit',
      },
      wager: {
        heading: 'Stake limits',
        name: 'stake limit',
        intro: 'How much you can stake in total over a period, whether you win or lose.',
        none: 'You have not set a stake limit yet.',
        used: 'Staked',
        remaining: 'Left to stake',
        noReset: 'Nothing staked in the period',
        formLegend: 'Set or change a stake limit',
        save: 'Save stake limit',
      },
      play_time: {
        heading: 'Play time limits',
        name: 'play time limit',
        intro: 'How long you can play over a period, or in a single session.',
        none: 'You have not set a play time limit yet.',
        used: 'Played',
        remaining: 'Time left',
        noReset: 'No play in the period',
        formLegend: 'Set or change a play time limit',
        save: 'Save play time limit',
      },
    } satisfies Record<LimitKind, KindWords>,
    period: 'Period',
    limit: 'Limit',
    resets: 'Next reset',
    waiting: 'Change waiting',
    types: {
      limit_daily: 'Daily (24 hours)',
      limit_weekly: 'Weekly (7 days)',
      limit_monthly: 'Monthly (30 days)',
      limit_session: 'Each session',
    } satisfies Record<LimitType, string>,
    pending: (amount: string, time: string) => `Rises to ${amount} on ${time}`,
    cancel: 'Cancel this increase',
    amountLabel: (currency: string) => `Amount (${currency})`,
    amountHint: 'For example 250 or 250.50',
    timeLegend: 'Time',
    timeHint: 'For example 1 hour and 30 minutes',
    hours: 'Hours',
    minutes: 'Minutes',
    setNow: (limit: string, period: string, amount: string) => `Your ${limit} “${period}” is now ${amount}.`,
    increaseWaits: (limit: string, period: string, amount: string, time: string, current: string) =>
      `Your ${limit} “${period}” will rise to ${amount} on ${time}, after its cooling-off period. Until then it stays at ${current}.`,
    cancelled: (limit: string, period: string, amount: string) =>
      `The increase is cancelled. Your ${limit} “${period}” stays at ${amount}.`,
  },

  timeOut: {
    heading: 'Take a break',
    intro: (operator: string) =>
      `A break stops you playing with ${operator} for the time you choose. Once it has started, it cannot be shortened or cancelled.`,
    durationLegend: 'How long do you want your break to be?',
    durations: {
      duration_24h: '24 hours',
      duration_7d: '7 days',
      duration_30d: '30 days',
      duration_6w: '6 weeks',
    } satisfies Record<TimeOutDuration, string>,
    continue: 'Continue',
    confirmTitle: (duration: string) => `Take a break for ${duration}?`,
    confirmUntil: (time: string) => `If you start it now, your break lasts until ${time}.`,
    confirmText: (operator: string) =>
      `You will not be able to play with ${operator} until then. Once it has started, your break cannot be shortened or cancelled, not even if you change your mind.`,
    confirmSubmit: (duration: string) => `Yes, start my break of ${duration}`,
    back: 'Go back without taking a break',
    inForce: (time: string) => `You are on a break until ${time}.`,
    inForceNext: 'It cannot be shortened or cancelled.',
    longerLegend: 'Do you want a longer break?',
    longerHint: 'A longer break starts now and replaces the one you are on.',
    started: (time: string) => `Your break has started. It lasts until ${time}.`,
  },

  realityCheck: {
    heading: 'Reality checks',
    intro:
      'While you play, a reminder tells you how long you have been playing and how much you have won or lost. You choose how often it comes. Reminders cannot be turned off.',
    current: (interval: string) => `Time between reminders: ${interval}`,
    yourChoice: 'You chose this.',
    operatorDefault: (operator: string) => `This is ${operator}'s default.`,
    legend: 'How much time do you want between reminders?',
    hint: 'Your choice applies to the sessions you start after saving it. A session already under way keeps its reminders.',
    useDefault: (operator: string, interval: string) => `${operator}'s default (${interval})`,
    save: 'Save reminder setting',
    saved: (interval: string) => `Saved. From your next session, the time between reminders is ${interval}.`,
    savedDefault: (operator: string, interval: string) =>
      `Saved. From your next session, ${operator}'s default applies: ${interval} between reminders.`,
  },

  errors: {
    chooseDuration: 'Choose how long you want to be excluded',
    confirmPermanent: 'Tick the box to confirm that you understand a permanent exclusion can never be undone',
    enterCode: 'Enter the 6-digit code from the email',
    wrongCode: (left: number) =>
      left === 1
        ? 'The code is not right. You have 1 more try.'
        : `The code is not right. You have ${left} more tries.`,
    lastWrongCode: 'The code is not right, and that was the last try. Ask for a new code.',
    codeExpired: 'The code has expired. Ask for a new code.',
    codeLocked: 'There were too many wrong codes. Ask for a new code.',
    codeNotRequested: 'Choose a period first; we will then send you a code.',
    resendTooEarly: (seconds: number) => `Wait ${seconds} seconds before asking for a new code.`,
    tooManyCodes: (minutes: number) =>
      `Too many codes have been sent to this email address. Try again in ${minutes} minutes.`,
    alreadyExcluded: 'You already have an exclusion that this one cannot replace.',
    sessionExpired: (operator: string) => `This page has expired. Go back to ${operator} and open it again.`,
    sessionInvalid: 'This page is not available. Go back to the site you came from and open it again.',
    sessionCompleted: 'This page has already been used.',
    chooseType: 'Choose the period of the limit',
    enterAmount: 'Enter an amount, like 250 or 250.50',
    enterTime: 'Enter a time in hours and minutes, like 1 hour and 30 minutes',
    belowMinimum: 'The limit is too low. Enter a larger amount.',
    timeTooShort: 'The limit is too short. Enter at least 5 minutes.',
    tooLateToCancel: 'This increase has already taken effect, so it can no longer be cancelled.',
    chooseBreak: 'Choose how long you want your break to be',
    chooseReminder: 'Choose how much time you want between reminders',
    pendingChange: 'An increase of this limit is already waiting. Cancel it before asking for another.',
    currencyMismatch: 'Your limits are kept in another currency. Contact support.',
    generic: 'Something went wrong. Try again, or go back to the site you came from.',
  },

  mail: {
    subject: 'Your confirmation code',
    body: (code: string, operator: string, duration: string, minutes: number) =>
      `Your confirmation code is ${code}.\n\nEnter it on ${operator}'s page to confirm your self-exclusion (${duration}). The code works for ${minutes} minutes.\n\nIf you did not ask for this, ignore this email: nothing changes without the code.`,
  },
};

export type Messages = typeof en;
