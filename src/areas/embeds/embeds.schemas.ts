import { Type, type Static } from 'typebox';
import { CurrencyCode, Timestamp } from '../../platform/schemas.js';
import { Duration } from '../exclusions/index.js';
import { LimitView, WindowType } from '../limits/index.js';
import { CODE_DIGITS, EMBED_KINDS, LOCALES, MAX_EMBED_ORIGINS } from './embeds.rules.js';

/** Wire shapes of the hosted embeds: each validates, types and documents (OpenAPI) one request or response. */

const HttpUrl = (description: string) =>
  Type.String({ maxLength: 2000, format: 'uri', pattern: '^https?://[^/?#]', description });

export const CreateEmbedSessionRequest = Type.Object(
  {
    kind: Type.Enum(EMBED_KINDS, {
      description:
        'self_exclusion: the two-step exclusion form; deposit_limits: the player sets limits of every kind (deposit, loss, stake, play time) and takes a break',
    }),
    user_id: Type.String({ minLength: 1, maxLength: 200, description: "The tenant's own player identifier" }),
    email: Type.Optional(
      Type.String({
        maxLength: 320,
        description: 'Required for self_exclusion: the confirmation code goes here',
      }),
    ),
    phone: Type.Optional(
      Type.String({ maxLength: 64, description: 'International form; registered with the exclusion' }),
    ),
    locale: Type.Optional(
      Type.String({
        maxLength: 35,
        description: `The page's language (BCP 47: de, de-AT, sv-SE …): one of ${LOCALES.join(', ')}; any other is English`,
      }),
    ),
    return_url: Type.Optional(
      HttpUrl(
        "Where the page's last step links back to on the operator's site (never followed automatically)",
      ),
    ),
    // deposit_limits: the currency of the player's limits; by default the one their limits and deposits are kept in.
    currency: Type.Optional(CurrencyCode),
    operator_notice: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description:
          "The operator's own words shown on the page as plain text: what happens to the player's balance, where to get help",
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateEmbedSessionRequest = Static<typeof CreateEmbedSessionRequest>;

export const EmbedSession = Type.Object({
  embed_session_id: Type.String(),
  kind: Type.Enum(EMBED_KINDS),
  url: Type.String({
    description: 'The page to show the player (in an iframe, or opened): it carries the single-session token',
  }),
  expires_at: Timestamp,
});
export type EmbedSession = Static<typeof EmbedSession>;

export const TokenParams = Type.Object({
  token: Type.String({ minLength: 1, maxLength: 100, description: 'The token of the session URL' }),
});

export const RequestCodeRequest = Type.Object({ duration: Duration }, { additionalProperties: false });
export type RequestCodeRequest = Static<typeof RequestCodeRequest>;

export const CodeRequested = Type.Object({
  code_expires_at: Timestamp,
  resend_available_at: Timestamp,
});

export const ConfirmCodeRequest = Type.Object(
  {
    code: Type.String({
      pattern: `^[0-9]{${CODE_DIGITS}}$`,
      description: `The ${CODE_DIGITS}-digit code from the email`,
    }),
  },
  { additionalProperties: false },
);

export const EmbedLimits = Type.Object({
  user_id: Type.String(),
  currency: Type.String(),
  limits: Type.Array(LimitView),
});

export const EmbedSetLimitRequest = Type.Object(
  {
    limit_type: WindowType,
    amount_cents: Type.Integer({ minimum: 1, maximum: 1e15, description: "In the session's currency" }),
  },
  { additionalProperties: false },
);
export type EmbedSetLimitRequest = Static<typeof EmbedSetLimitRequest>;

export const EmbedLimitParams = Type.Object({
  token: TokenParams.properties.token,
  limit_id: Type.String({ minLength: 1, maxLength: 200 }),
});

export const EmbedOriginsRequest = Type.Object(
  {
    origins: Type.Array(
      Type.String({
        minLength: 1,
        maxLength: 300,
        description: 'An origin: scheme, host and port only (https://casino.example)',
      }),
      { maxItems: MAX_EMBED_ORIGINS },
    ),
  },
  { additionalProperties: false },
);
