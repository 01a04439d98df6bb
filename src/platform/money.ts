/** Money for people to read: minor units in the currency's own number of decimals ("150.00 USD", "500 JPY"). */
export function formatMoney(minorUnits: number, currency: string): string {
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
      2;
  } catch {
    // An unknown code still prints, with two decimals.
  }
  const major = (minorUnits / 10 ** digits).toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${major} ${currency}`;
}
