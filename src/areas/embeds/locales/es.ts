import type { Duration } from '../../exclusions/index.js';
import type { LimitType } from '../../limits/index.js';
import type { TimeOutDuration } from '../../time-outs/index.js';
import type { Messages } from './en.js';

/** Spanish (Español). */
export const es: Messages = {
  language: 'Español',
  errorSummaryTitle: 'Hay un problema',
  returnTo: (operator: string) => `Volver a ${operator}`,
  providedBy: (operator: string) =>
    `${operator} ofrece esta página a través de su servicio de cumplimiento normativo.`,
  help: 'Si el juego te está haciendo daño a ti o a alguien cercano, los servicios de apoyo de tu país ofrecen ayuda gratuita y confidencial.',
  at: 'UTC',

  exclusion: {
    title: 'Tómate un descanso del juego',
    intro: (operator: string) =>
      `Puedes autoexcluirte del juego en ${operator}. Mientras dure la autoexclusión no podrás iniciar sesión, depositar ni jugar, y no se podrá acortar ni cancelar.`,
    register:
      'Tu autoexclusión también queda inscrita en el registro nacional de autoexclusión, así que los demás operadores con licencia tampoco te dejarán jugar.',
    durationLegend: '¿Durante cuánto tiempo quieres autoexcluirte?',
    durations: {
      duration_24h: '24 horas',
      duration_7d: '7 días',
      duration_30d: '30 días',
      duration_6m: '6 meses',
      duration_1y: '1 año',
      duration_permanent: 'De forma permanente',
    } satisfies Record<Duration, string>,
    permanentHint: 'De forma permanente significa para siempre: nunca se podrá deshacer.',
    continue: 'Continuar',
    permanentTitle: '¿Autoexcluirte de forma permanente?',
    permanentText: (operator: string) =>
      `Una autoexclusión permanente nunca se podrá deshacer: ni tú, ni ${operator}, ni nadie más podrá hacerlo.`,
    permanentConfirm: 'Entiendo que una autoexclusión permanente nunca se podrá deshacer',
    permanentSubmit: 'Sí, autoexcluirme de forma permanente',
    chooseAnother: 'Elegir otro periodo',
    codeTitle: 'Revisa tu correo electrónico',
    codeSent: (email: string, duration: string) =>
      `Hemos enviado un código de 6 cifras a ${email}. Introdúcelo para confirmar tu autoexclusión durante ${duration}.`,
    codeSentPermanent: (email: string) =>
      `Hemos enviado un código de 6 cifras a ${email}. Introdúcelo para confirmar tu autoexclusión permanente.`,
    codeExpiresAt: (time: string) => `El código es válido hasta el ${time}.`,
    codeLabel: 'Código del correo',
    codeHint: '6 cifras, por ejemplo 123456',
    confirm: 'Confirmar mi autoexclusión',
    resend: 'Enviar un código nuevo',
    resendFrom: (time: string) => `Podrás pedir un código nuevo a partir del ${time}.`,
    doneTitle: 'Tu autoexclusión está activa',
    doneUntil: (time: string) => `Tu autoexclusión dura hasta el ${time}.`,
    donePermanent: 'Tu autoexclusión es permanente.',
    doneNext: 'Mientras dure, no podrás iniciar sesión, depositar ni jugar.',
  },

  limits: {
    title: 'Tus límites y descansos',
    intro:
      'Los límites te ayudan a mantener el control de tus depósitos, tus pérdidas, tus apuestas y tu tiempo de juego. Si bajas un límite, el cambio se aplica al momento. Si lo subes, solo se aplica después de un periodo de espera: 24 horas si es hasta el doble del límite actual, 48 horas si es hasta cinco veces, 7 días si es más.',
    contents: 'En esta página',
    kinds: {
      deposit: {
        heading: 'Límites de depósito',
        name: 'límite de depósito',
        intro: 'Cuánto puedes depositar en tu cuenta en un periodo.',
        none: 'Todavía no has fijado ningún límite de depósito.',
        used: 'Depositado',
        remaining: 'Disponible para depositar',
        noReset: 'Nada depositado en el periodo',
        formLegend: 'Fijar o cambiar un límite de depósito',
        save: 'Guardar límite de depósito',
      },
      loss: {
        heading: 'Límites de pérdidas',
        name: 'límite de pérdidas',
        intro: 'Cuánto puedes perder en un periodo: lo que apuestas, menos lo que recuperas en premios.',
        none: 'Todavía no has fijado ningún límite de pérdidas.',
        used: 'Perdido',
        remaining: 'Margen hasta el límite',
        noReset: 'Sin pérdidas en el periodo',
        formLegend: 'Fijar o cambiar un límite de pérdidas',
        save: 'Guardar límite de pérdidas',
      },
      wager: {
        heading: 'Límites de apuestas',
        name: 'límite de apuestas',
        intro: 'Cuánto puedes apostar en total en un periodo, ganes o pierdas.',
        none: 'Todavía no has fijado ningún límite de apuestas.',
        used: 'Apostado',
        remaining: 'Disponible para apostar',
        noReset: 'Nada apostado en el periodo',
        formLegend: 'Fijar o cambiar un límite de apuestas',
        save: 'Guardar límite de apuestas',
      },
      play_time: {
        heading: 'Límites de tiempo de juego',
        name: 'límite de tiempo de juego',
        intro: 'Cuánto tiempo puedes jugar en un periodo o en una sola sesión.',
        none: 'Todavía no has fijado ningún límite de tiempo de juego.',
        used: 'Jugado',
        remaining: 'Tiempo restante',
        noReset: 'Sin juego en el periodo',
        formLegend: 'Fijar o cambiar un límite de tiempo de juego',
        save: 'Guardar límite de tiempo de juego',
      },
    },
    period: 'Periodo',
    limit: 'Límite',
    resets: 'Próximo importe que vuelve al límite',
    waiting: 'Cambio pendiente',
    types: {
      limit_daily: 'Diario (24 horas)',
      limit_weekly: 'Semanal (7 días)',
      limit_monthly: 'Mensual (30 días)',
      limit_session: 'Por sesión',
    } satisfies Record<LimitType, string>,
    pending: (amount: string, time: string) => `Sube a ${amount} el ${time}`,
    cancel: 'Cancelar esta subida',
    amountLabel: (currency: string) => `Importe (${currency})`,
    amountHint: 'Por ejemplo 250 o 250,50',
    timeLegend: 'Tiempo',
    timeHint: 'Por ejemplo 1 hora y 30 minutos',
    hours: 'Horas',
    minutes: 'Minutos',
    setNow: (limit: string, period: string, amount: string) =>
      `Tu ${limit} «${period}» es ahora de ${amount}.`,
    increaseWaits: (limit: string, period: string, amount: string, time: string, current: string) =>
      `Tu ${limit} «${period}» subirá a ${amount} el ${time}, cuando termine su periodo de espera. Hasta entonces, sigue siendo de ${current}.`,
    cancelled: (limit: string, period: string, amount: string) =>
      `La subida está cancelada. Tu ${limit} «${period}» sigue siendo de ${amount}.`,
  },

  timeOut: {
    heading: 'Tomarte un descanso',
    intro: (operator: string) =>
      `Un descanso te impide jugar en ${operator} durante el tiempo que elijas. Una vez empezado, no se puede acortar ni cancelar.`,
    durationLegend: '¿Cuánto tiempo quieres que dure tu descanso?',
    durations: {
      duration_24h: '24 horas',
      duration_7d: '7 días',
      duration_30d: '30 días',
      duration_6w: '6 semanas',
    } satisfies Record<TimeOutDuration, string>,
    continue: 'Continuar',
    confirmTitle: (duration: string) => `¿Tomarte un descanso de ${duration}?`,
    confirmUntil: (time: string) => `Si lo empiezas ahora, tu descanso dura hasta el ${time}.`,
    confirmText: (operator: string) =>
      `Hasta entonces no podrás jugar en ${operator}. Una vez empezado, tu descanso no se puede acortar ni cancelar, aunque cambies de opinión.`,
    confirmSubmit: (duration: string) => `Sí, empezar mi descanso de ${duration}`,
    back: 'Volver sin tomarme un descanso',
    inForce: (time: string) => `Estás en un descanso hasta el ${time}.`,
    inForceNext: 'No se puede acortar ni cancelar.',
    longerLegend: '¿Quieres un descanso más largo?',
    longerHint: 'Un descanso más largo empieza ahora y sustituye al que tienes.',
    started: (time: string) => `Tu descanso ha empezado. Dura hasta el ${time}.`,
  },

  realityCheck: {
    heading: 'Recordatorios durante el juego',
    intro:
      'Mientras juegas, un recordatorio te dice cuánto tiempo llevas jugando y cuánto has ganado o perdido. Tú eliges cada cuánto aparece. Los recordatorios no se pueden desactivar.',
    current: (interval: string) => `Tiempo entre recordatorios: ${interval}`,
    yourChoice: 'Lo has elegido tú.',
    operatorDefault: (operator: string) => `Es la opción predeterminada de ${operator}.`,
    legend: '¿Cuánto tiempo quieres entre recordatorios?',
    hint: 'Tu elección se aplica a las sesiones que empieces después de guardarla. Una sesión ya en curso mantiene sus recordatorios.',
    useDefault: (operator: string, interval: string) =>
      `La opción predeterminada de ${operator} (${interval})`,
    save: 'Guardar recordatorios',
    saved: (interval: string) =>
      `Guardado. A partir de tu próxima sesión, el tiempo entre recordatorios será de ${interval}.`,
    savedDefault: (operator: string, interval: string) =>
      `Guardado. A partir de tu próxima sesión, se aplica la opción predeterminada de ${operator}: ${interval} entre recordatorios.`,
  },

  errors: {
    chooseDuration: 'Elige durante cuánto tiempo quieres autoexcluirte',
    confirmPermanent:
      'Marca la casilla para confirmar que entiendes que una autoexclusión permanente nunca se podrá deshacer',
    enterCode: 'Introduce el código de 6 cifras del correo',
    wrongCode: (left: number) =>
      left === 1
        ? 'El código no es correcto. Te queda 1 intento.'
        : `El código no es correcto. Te quedan ${left} intentos.`,
    lastWrongCode: 'El código no es correcto y era el último intento. Pide un código nuevo.',
    codeExpired: 'El código ha caducado. Pide un código nuevo.',
    codeLocked: 'Se han introducido demasiados códigos incorrectos. Pide un código nuevo.',
    codeNotRequested: 'Primero elige un periodo; después te enviaremos un código.',
    resendTooEarly: (seconds: number) => `Espera ${seconds} segundos antes de pedir un código nuevo.`,
    tooManyCodes: (minutes: number) =>
      `Se han enviado demasiados códigos a esta dirección de correo. Vuelve a intentarlo dentro de ${minutes} minutos.`,
    alreadyExcluded: 'Ya tienes una autoexclusión que esta no puede sustituir.',
    sessionExpired: (operator: string) => `Esta página ha caducado. Vuelve a ${operator} y ábrela de nuevo.`,
    sessionInvalid: 'Esta página no está disponible. Vuelve al sitio del que venías y ábrela de nuevo.',
    sessionCompleted: 'Esta página ya se ha utilizado.',
    chooseType: 'Elige el periodo del límite',
    enterAmount: 'Introduce un importe, por ejemplo 250 o 250,50',
    belowMinimum: 'El límite es demasiado bajo. Introduce un importe mayor.',
    enterTime: 'Introduce un tiempo en horas y minutos, por ejemplo 1 hora y 30 minutos',
    timeTooShort: 'El límite es demasiado corto. Introduce al menos 5 minutos.',
    tooLateToCancel: 'Esta subida ya se ha aplicado, así que ya no se puede cancelar.',
    chooseBreak: 'Elige cuánto tiempo quieres que dure tu descanso',
    chooseReminder: 'Elige cuánto tiempo quieres entre recordatorios',
    pendingChange: 'Ya hay una subida de este límite pendiente. Cancélala antes de pedir otra.',
    currencyMismatch: 'Tus límites están en otra moneda. Ponte en contacto con atención al cliente.',
    generic: 'Algo ha fallado. Vuelve a intentarlo o regresa al sitio del que venías.',
  },

  mail: {
    subject: 'Tu código de confirmación',
    body: (code: string, operator: string, duration: string, minutes: number) =>
      `Tu código de confirmación es ${code}.\n\nIntrodúcelo en la página de ${operator} para confirmar tu autoexclusión (${duration}). El código es válido durante ${minutes} minutos.\n\nSi no lo has pedido tú, ignora este correo: sin el código no cambia nada.`,
  },
};
