import type { Duration } from '../../exclusions/index.js';
import type { WindowType } from '../../limits/index.js';
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
    title: 'Tus límites de depósito',
    intro:
      'Un límite de depósito fija cuánto puedes depositar como máximo en un periodo. Si bajas un límite, el cambio se aplica al momento. Si lo subes, solo se aplica después de un periodo de espera: 24 horas si es hasta el doble del límite actual, 48 horas si es hasta cinco veces, 7 días si es más.',
    caption: 'Límites vigentes',
    none: 'Todavía no has fijado ningún límite de depósito.',
    period: 'Periodo',
    limit: 'Límite',
    deposited: 'Depositado',
    remaining: 'Disponible para depositar',
    resets: 'Próximo importe que vuelve al límite',
    waiting: 'Cambio pendiente',
    noReset: 'Nada depositado en el periodo',
    types: {
      limit_daily: 'Diario (24 horas)',
      limit_weekly: 'Semanal (7 días)',
      limit_monthly: 'Mensual (30 días)',
    } satisfies Record<WindowType, string>,
    pending: (amount: string, time: string) => `Sube a ${amount} el ${time}`,
    cancel: 'Cancelar esta subida',
    formLegend: 'Fijar o cambiar un límite',
    amountLabel: (currency: string) => `Importe (${currency})`,
    amountHint: 'Por ejemplo 250 o 250,50',
    save: 'Guardar límite',
    setNow: (period: string, amount: string) => `Tu límite «${period}» es ahora de ${amount}.`,
    increaseWaits: (period: string, amount: string, time: string, current: string) =>
      `Tu límite «${period}» subirá a ${amount} el ${time}, cuando termine su periodo de espera. Hasta entonces, tu límite sigue siendo de ${current}.`,
    cancelled: (period: string, amount: string) =>
      `La subida está cancelada. Tu límite «${period}» sigue siendo de ${amount}.`,
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
