/**
 * DataForSEO needs a location with every SERP and volume request; the audit only knows its
 * language. The country where the language is mainly searched is the default (Google Ads
 * location codes, as DataForSEO lists them); SERP_LOCATION_CODE overrides it for every language.
 */
const BY_LANGUAGE: Record<string, number> = {
  en: 2840, // United States
  pl: 2616, // Poland
  de: 2276, // Germany
  fr: 2250, // France
  es: 2724, // Spain
  it: 2380, // Italy
  nl: 2528, // Netherlands
  pt: 2076, // Brazil
  cs: 2203, // Czechia
  sv: 2752, // Sweden
};

export const DEFAULT_LOCATION = 2840;

export const locationFor = (language: string): number => BY_LANGUAGE[language.toLowerCase()] ?? DEFAULT_LOCATION;
