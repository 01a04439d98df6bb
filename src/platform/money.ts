/**
 * Money is integer minor units end to end; here it becomes text. A currency's minor unit is its number of decimals
 * as Intl knows it (2 for USD and EUR, 0 for JPY, 3 for BHD), the same scale the FX conversion uses.
 */

/** Decimals by currency code: three capital letters, so a bounded set. */
const decimalsByCurrency = new Map<string, number>();

/**
 * Decimals of the currency's minor unit; two for a code Intl does not know. Kept once read: building an
 * Intl.NumberFormat is slow next to a map read, and every AML event needs the answer.
 */
export function currencyDecimals(currency: string): number {
  let decimals = decimalsByCurrency.get(currency);
  if (decimals === undefined) {
    try {
      decimals =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
          .maximumFractionDigits ?? 2;
    } catch {
      decimals = 2;
    }
    decimalsByCurrency.set(currency, decimals);
  }
  return decimals;
}

/**
 * How an amount is written: `text` for people in English (grouped, with the code: "1,500.00 USD", "500 JPY");
 * `decimal` for files such as CSV exports (exact, ungrouped, no code: "1500.00"); `{ locale }` as the player's
 * language writes money ("1.500,00 €" in German).
 */
export type MoneyStyle = 'text' | 'decimal' | { locale: string };

/** An amount in minor units as text, in the currency's own decimals; exact for every safe integer. */
export function formatMoney(minorUnits: number, currency: string, style: MoneyStyle = 'text'): string {
  const decimals = currencyDecimals(currency);
  if (typeof style === 'object') {
    return new Intl.NumberFormat(style.locale, { style: 'currency', currency }).format(
      minorUnits / 10 ** decimals,
    );
  }
  const sign = minorUnits < 0 ? '-' : '';
  const digits = String(Math.abs(minorUnits)).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = decimals === 0 ? '' : `.${digits.slice(-decimals)}`;
  if (style === 'decimal') return `${sign}${whole}${fraction}`;
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction} ${currency}`;
}
