import type { DimensionId, Intent, ProfileId } from './types.ts';

/**
 * Texts a person reads: Polish for Polish content, German for German content, English otherwise
 * (spec 2.3); other languages get English labels, and the result still reports their language.
 */
export const isPolish = (lang: string): boolean => lang === 'pl';

/**
 * Picks the English, the Polish or the German text. Every label gives all three, so a German
 * report never falls back to English.
 */
export const t = (lang: string, en: string, pl: string, de: string): string =>
  isPolish(lang) ? pl : lang === 'de' && de !== undefined ? de : en;

/** Plural categories, from the runtime's CLDR data (pl: one/few/many/other; en, de: one/other). */
const pluralRules = new Map<string, Intl.PluralRules>();
const pluralCategory = (lang: string, n: number): Intl.LDMLPluralRule => {
  const key = isPolish(lang) ? 'pl' : lang === 'de' ? 'de' : 'en';
  let r = pluralRules.get(key);
  if (!r) pluralRules.set(key, (r = new Intl.PluralRules(key)));
  return r.select(n);
};

/**
 * The form of a counted noun (with whatever agrees with it, e.g. its verb) for n: English and
 * German one/other; Polish one/few/many ("1 słowo", "42 słowa", "892 słowa", "25 słów"), a
 * fraction taking the few form, as the genitive singular usually matches it ("2,5 słowa").
 */
export const plural = (
  lang: string,
  n: number,
  en: [string, string],
  pl: [string, string, string],
  de?: [string, string],
): string => {
  const c = pluralCategory(lang, n);
  if (isPolish(lang)) return c === 'one' ? pl[0] : c === 'few' || c === 'other' ? pl[1] : pl[2];
  const forms = lang === 'de' && de ? de : en;
  return c === 'one' ? forms[0] : forms[1];
};

/** A number as client text: a decimal comma in Polish and German ("4,37"), a point in English. */
export const num = (lang: string, n: number): string => {
  const s = String(n);
  return isPolish(lang) || lang === 'de' ? s.replace('.', ',') : s;
};

/** A percentage as the language writes it: "3.29%", "3,29%", "3,29 %". */
export const percent = (lang: string, n: number): string => `${num(lang, n)}${lang === 'de' ? ' ' : ''}%`;

/** "n noun" in the right form: count('pl', 42, ['word', 'words'], ['słowo', 'słowa', 'słów']) → "42 słowa". */
export const count = (
  lang: string,
  n: number,
  en: [string, string],
  pl: [string, string, string],
  de?: [string, string],
): string => {
  // The number is written the way the chosen text's language writes it (German without German forms reads English).
  const textLang = isPolish(lang) ? 'pl' : lang === 'de' && de ? 'de' : 'en';
  return `${num(textLang, n)} ${plural(lang, n, en, pl, de)}`;
};

/**
 * A phrase of the keyword's words written as the keyword writes them: the analysis lower-cases,
 * but a client reads "wymiana zamków Gdańsk", not "gdańsk". Words the keyword lacks stay as they are.
 */
export const keywordCase = (phrase: string, keyword: string): string => {
  const surface = new Map(keyword.split(/\s+/).map((w) => [w.toLowerCase(), w] as const));
  return phrase
    .split(' ')
    .map((w) => surface.get(w) ?? w)
    .join(' ');
};

const DIMENSION_NAMES: Record<DimensionId, [string, string, string]> = {
  csiAlignment: [
    'Central search intent alignment (CSI-A)',
    'Zgodność z centralną intencją (CSI-A)',
    'Übereinstimmung mit der zentralen Suchintention (CSI-A)',
  ],
  density: ['Keyword density and distribution', 'Gęstość i rozkład frazy kluczowej', 'Keyword-Dichte und -Verteilung'],
  eav: [
    'Entities, attributes and values (EAV)',
    'Encje, atrybuty i wartości (EAV)',
    'Entitäten, Attribute und Werte (EAV)',
  ],
  bluf: ['Answer first (BLUF)', 'Odpowiedź na początku (BLUF)', 'Antwort zuerst (BLUF)'],
  chunk: [
    'Self-contained passages (chunking)',
    'Samodzielne fragmenty (chunking)',
    'Eigenständige Abschnitte (Chunking)',
  ],
  cor: ['Cost of retrieval', 'Koszt pobrania i przetworzenia (CoR)', 'Abrufkosten (CoR)'],
  tfidf: ['Topical terms (TF-IDF)', 'Terminy tematyczne (TF-IDF)', 'Themenbegriffe (TF-IDF)'],
  srl: ['Clear sentences (who does what)', 'Jasne zdania (kto co robi)', 'Klare Sätze (wer tut was)'],
  queryFanout: [
    'Query fan-out coverage',
    'Pokrycie zapytań pobocznych (query fan-out)',
    'Abdeckung der Teilfragen (Query-Fan-out)',
  ],
  effort: ['Effort and originality', 'Wkład pracy i oryginalność', 'Aufwand und Originalität'],
};

/** A dimension's name as a label (spec 2.3: Polish for Polish content, German for German, else English). */
export const dimensionName = (id: DimensionId, lang: string): string => {
  const [en, pl, de] = DIMENSION_NAMES[id];
  return t(lang, en, pl, de);
};

/**
 * A dimension's name inside a sentence written for the article's author (a recommendation's
 * impact line): in German for a German article, whose titles and tasks are German too.
 */
export const dimensionNameInText = (id: DimensionId, lang: string): string => {
  const [en, pl, de] = DIMENSION_NAMES[id];
  return t(lang, en, pl, de);
};

/**
 * A phrase of the page's own words as the page writes them inside a sentence: the analysis
 * lower-cases, but a German reader expects "Mutter", "Watt", and any reader "Gdańsk", "Kindle".
 * A word takes its capital only where the text capitalises it mid-sentence more often than not.
 */
export const surfaceCase = (phrase: string, text: string): string =>
  phrase
    .split(' ')
    .map((w) => {
      if (!/^\p{Ll}/u.test(w)) return w;
      const esc = w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const mid = [...text.matchAll(new RegExp(`(?<=[\\p{L}\\p{N},;] )(${esc})(?![\\p{L}])`, 'giu'))].map((m) => m[1]!);
      const upper = mid.filter((m) => /^\p{Lu}/u.test(m)).length;
      return upper * 2 > mid.length ? w[0]!.toLocaleUpperCase() + w.slice(1) : w;
    })
    .join(' ');

const PROFILE_LABELS: Record<ProfileId, [string, string]> = {
  article: ['Article', 'Artykuł'],
  'how-to': ['How-to guide', 'Poradnik (how-to)'],
  listicle: ['List article', 'Artykuł-lista'],
  comparison: ['Comparison', 'Porównanie'],
  review: ['Review', 'Recenzja'],
  product: ['Product page', 'Strona produktu'],
  category: ['Category page', 'Strona kategorii'],
  landing: ['Landing page', 'Strona docelowa (landing page)'],
  glossary: ['Glossary entry', 'Hasło słownikowe'],
  news: ['News', 'Wiadomość (news)'],
};

const INTENT_LABEL: Record<Intent, [string, string, string]> = {
  informational: ['informational', 'informacyjna', 'informativ'],
  instructional: ['instructional', 'instruktażowa', 'anleitend'],
  comparison: ['comparison', 'porównawcza', 'vergleichend'],
  commercial: ['commercial', 'komercyjna', 'kommerziell'],
  transactional: ['transactional', 'transakcyjna', 'transaktional'],
  local: ['local', 'lokalna', 'lokal'],
  navigational: ['navigational', 'nawigacyjna', 'navigierend'],
};

/** A search intent's name in the report's language ("informacyjna"), never the engine's id. */
export const intentLabel = (intent: Intent, lang: string): string => t(lang, ...INTENT_LABEL[intent]);

/** The page format a search intent is answered by, as the suggestion of a mismatched page names it. */
const INTENT_FORMAT: Record<Intent, [string, string, string]> = {
  informational: [
    'an explainer that answers first',
    'tekst wyjaśniający, który zaczyna od odpowiedzi',
    'einen erklärenden Text, der mit der Antwort beginnt',
  ],
  instructional: ['a step-by-step guide', 'poradnik krok po kroku', 'eine Schritt-für-Schritt-Anleitung'],
  comparison: ['a side-by-side comparison', 'porównanie punkt po punkcie', 'einen direkten Vergleich'],
  commercial: ['a review or a buying guide', 'recenzja lub poradnik zakupowy', 'einen Test oder eine Kaufberatung'],
  transactional: ['a product or offer page', 'strona produktu lub oferty', 'eine Produkt- oder Angebotsseite'],
  local: [
    'a local service page (address, area served, prices, booking)',
    'strona lokalnej usługi (adres, obszar, ceny, zapisy)',
    'eine lokale Dienstleistungsseite (Adresse, Einzugsgebiet, Preise, Buchung)',
  ],
  navigational: ["the brand's own page", 'strona samej marki', 'die eigene Seite der Marke'],
};

export const intentFormat = (intent: Intent, lang: string): string => t(lang, ...INTENT_FORMAT[intent]);

/**
 * The content profile as the summary labels it: the spec (2.3) renders the summary's labels in
 * Polish for Polish content and in English otherwise, German included, unlike the report's cards.
 */
export const profileLabel = (id: ProfileId, lang: string): string => {
  const [en, pl] = PROFILE_LABELS[id];
  return t(lang, en, pl, en);
};

// Section names locate a change inside a German article, so they are German like every label.
export const sectionLabels = (lang: string) => ({
  intro: t(lang, 'Introduction', 'Wstęp', 'Einleitung'),
  // A page without subheadings is one section: the text, not its introduction.
  body: t(lang, 'Article text', 'Tekst artykułu', 'Artikeltext'),
  page: t(lang, 'Whole page', 'Cała strona', 'Ganze Seite'),
  title: t(lang, 'Title and H1', 'Tytuł i H1', 'Titel und H1'),
  end: t(lang, 'End of the article', 'Koniec artykułu', 'Ende des Artikels'),
  head: t(lang, 'Page code (head)', 'Kod strony (head)', 'Seitencode (head)'),
});
