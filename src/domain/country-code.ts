// Issuer country → ISO 3166-1 alpha-2 (the item's `country_code`), from the maintained ISO table
// of i18n-iso-countries rather than a hand list. Names are tried in English and in the languages
// of the covered markets (German, Spanish, French), then as alpha-2 / alpha-3 codes.
import countries from 'i18n-iso-countries';

const LANGUAGES = ['en', 'de', 'es', 'fr'] as const;

/** The alpha-2 code of a country name or code, or undefined when it names no ISO country. */
export function countryCodeOf(country: string | undefined): string | undefined {
  const text = country?.trim();
  if (!text) return undefined;
  for (const lang of LANGUAGES) {
    const code = countries.getAlpha2Code(text, lang) ?? countries.getSimpleAlpha2Code(text, lang);
    if (code) return code;
  }
  const upper = text.toUpperCase();
  if (/^[A-Z]{2}$/.test(upper) && countries.isValid(upper)) return upper;
  if (/^[A-Z]{3}$/.test(upper)) return countries.alpha3ToAlpha2(upper) ?? undefined;
  return undefined;
}
