// Issuer country → ISO 3166-1 alpha-2 (the item's `country_code`), from the maintained ISO table
// of i18n-iso-countries rather than a hand list. Names are tried in English and in the languages
// of the covered markets (German, Spanish, French), then as alpha-2 / alpha-3 codes.
// The package's plain entry plus the four locales we use, imported statically: its default entry
// loads every locale by a computed path, which the standalone binary cannot resolve.
import countries from 'i18n-iso-countries/index.js';
import de from 'i18n-iso-countries/langs/de.json';
import en from 'i18n-iso-countries/langs/en.json';
import es from 'i18n-iso-countries/langs/es.json';
import fr from 'i18n-iso-countries/langs/fr.json';

for (const locale of [en, de, es, fr]) countries.registerLocale(locale);
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
