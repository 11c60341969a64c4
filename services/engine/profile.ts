import type { Lexicon } from './text/lexicon.ts';
import type { Doc, ProfileId } from './types.ts';
import { PROFILE_IDS } from './types.ts';

/**
 * Content-type classifier: each type collects evidence from JSON-LD types, the title/H1 wording,
 * the heading pattern and body cues (prices, cart and call-to-action words, reporting verbs,
 * experience verbs); the best-supported type wins, ties going to the earlier type in PROFILE_IDS,
 * and "article" is the default when nothing stands out.
 */

const PATTERNS: Record<Exclude<ProfileId, 'article'>, RegExp> = {
  'how-to':
    /^(how to|how do|jak |wie )|step[- ]by[- ]step|krok po kroku|schritt für schritt|\bguide\b|poradnik|anleitung|instrukcja/i,
  listicle:
    /^\d+\s|\btop\s?\d+|\b\d+\s+(best|ways|tips|ideas|things|reasons|najlepsz|sposob|pomysł|porad|powod|rzecz|tipps|ideen)/i,
  comparison: /\bvs\.?\b|\bversus\b|porównanie|comparison|compared|\bvergleich\b|\bczy\b.+\bczy\b|\bor\b.+\?/i,
  review: /\breview\b|recenzja|\bopini[ae]\b|\btest\b|testbericht|erfahrungsbericht|\bhands-on\b/i,
  glossary:
    /^(what is|what are|what does|co to jest|co to|czym jest|czym są|was ist|was sind)\b|\bdefinicja\b|\bdefinition\b|\bmeaning\b|\bznaczenie\b/i,
  product: /add to cart|buy now|in stock|dodaj do koszyka|kup teraz|dostępny|in den warenkorb|jetzt kaufen/i,
  category: /\b(shop|sklep|kategoria|category|kollektion)\b/i,
  landing: /sign up|get started|free trial|book a demo|contact us|umów|skontaktuj|wypróbuj|zapisz się|jetzt starten/i,
  news: /\b(said|announced|reported|powiedział|powiedziała|poinformował|poinformowała|ogłosił|ogłosiła|zapowiedział|sagte|kündigte)\b/i,
};

/**
 * A title that calls the page news ("Latest news", „najnowsze wiadomości”, „Nachrichten“): the page
 * says what it is, dated or not (an undated news item with hearsay for sources reads as nothing
 * else, and got evergreen question sections in every blind review since r11).
 */
const NEWS_TITLE =
  /(?<![\p{L}])(?:news|breaking|wiadomości|aktualności|nachrichten|neuigkeiten|eilmeldung)(?![\p{L}])/iu;

const LD: Record<string, ProfileId> = {
  Product: 'product',
  Offer: 'product',
  HowTo: 'how-to',
  Recipe: 'how-to',
  NewsArticle: 'news',
  Review: 'review',
  DefinedTerm: 'glossary',
  CollectionPage: 'category',
  ItemList: 'listicle',
  FAQPage: 'article',
};

// A price as group 1, else the rest of the run of digits, skipped: every later start in that run
// fails as its first did (tried from each, a long run of digits cost its length squared).
const PRICE = /(\d[\d\s.,]*\s?(?:zł|pln|€|eur|usd|\$)|[$£€]\s?\d)|\d[\d\s.,]*/gi;

/**
 * A local provider's page: it asks to call or book and states its prices or its opening hours
 * ("Call 0118 …", „Umów wizytę”, „Öffnungszeiten“). Read as a landing page, whatever its length: a
 * provider that explains its trade at length is still the page a local search wants.
 */
const CALL_OR_BOOK =
  /call us|call now|call \*{0,2}\+?\d|book (?:online|now|a visit|an appointment)|get a (?:free )?quote|zadzwoń|telefonicznie|umów (?:się|wizytę)|zarezerwuj|rufen sie (?:uns )?an|anrufen|termin vereinbaren|jetzt buchen|buchen sie/gi;
const HOURS = /opening hours|open daily|open 24|godziny otwarcia|czynne od|öffnungszeiten|geöffnet/i;

export const classifyProfile = (doc: Doc, lex: Lexicon): ProfileId => {
  const score = new Map<ProfileId, number>(PROFILE_IDS.map((p) => [p, 0]));
  const bump = (p: ProfileId, n: number) => score.set(p, (score.get(p) ?? 0) + n);
  for (const ty of doc.signals.jsonLdTypes) {
    const p = LD[ty];
    if (p) bump(p, 3);
  }
  const head = `${doc.title} ${doc.h1}`.trim();
  const headings = doc.blocks.filter((b) => b.kind === 'heading' && b.level >= 2);
  const lower = doc.text.toLowerCase();
  for (const p of ['how-to', 'listicle', 'comparison', 'review', 'glossary'] as const) {
    if (PATTERNS[p].test(doc.title) || PATTERNS[p].test(doc.h1)) bump(p, 2.5);
  }
  if (NEWS_TITLE.test(doc.title) || NEWS_TITLE.test(doc.h1)) bump('news', 2.5);
  const numbered = headings.filter((h) => /^\d+[.)]?\s/.test(h.text)).length;
  if (numbered >= 3) bump('listicle', 2 + Math.min(2, numbered / 5));
  const steps =
    headings.filter((h) => /^(step|krok|schritt)\s*\d/i.test(h.text)).length +
    doc.blocks.filter((b) => b.kind === 'list' && /^\s*1[.)]/.test(b.raw)).length;
  if (steps >= 1) bump('how-to', Math.min(2, steps * 0.7));
  if (
    headings.some((h) => PATTERNS.comparison.test(h.text)) ||
    doc.blocks.some((b) => b.kind === 'table' && b.items.length >= 9)
  )
    bump('comparison', 1);
  const prices = [...doc.text.matchAll(PRICE)].filter((m) => m[1] !== undefined).length;
  // Cart buttons are page furniture that main-content extraction leaves out: read them from the page too.
  const cart = (
    `${lower}\n${doc.signals.actions.join('\n').toLowerCase()}`.match(new RegExp(PATTERNS.product.source, 'gi')) ?? []
  ).length;
  if (cart) bump('product', 2 + Math.min(2, prices / 3));
  if (prices >= 6 && doc.blocks.filter((b) => b.kind === 'list').length >= 2 && PATTERNS.category.test(head))
    bump('category', 3);
  const cta = (lower.match(new RegExp(PATTERNS.landing.source, 'gi')) ?? []).length;
  if (cta >= 2 && doc.words < 900) bump('landing', 1.5 + cta / 2);
  const calls = (lower.match(CALL_OR_BOOK) ?? []).length;
  if (calls >= 1 && (prices >= 2 || HOURS.test(lower))) bump('landing', 2 + Math.min(1.5, calls / 2));
  const reporting = (lower.match(new RegExp(PATTERNS.news.source, 'gi')) ?? []).length;
  if (
    reporting >= 2 &&
    (doc.signals.datePublished ||
      /\b(today|yesterday|on (monday|tuesday|wednesday|thursday|friday|saturday|sunday)|published|dzisiaj|wczoraj|w poniedziałek|we wtorek|w środę|w czwartek|w piątek|heute|gestern|am montag)\b/i.test(
        lower.slice(0, 1200),
      ))
  )
    bump('news', 1.5 + Math.min(2, reporting / 2));
  const experience = lex.experience.filter((e) => lower.includes(e)).length;
  if ((score.get('review') ?? 0) > 0 && experience >= 2) bump('review', 1);
  if ((score.get('glossary') ?? 0) > 0 && doc.words > 1500) bump('glossary', -1.5);
  let best: ProfileId = 'article';
  let bestScore = 1.9;
  for (const p of PROFILE_IDS) {
    const s = score.get(p) ?? 0;
    if (s > bestScore) {
      best = p;
      bestScore = s;
    }
  }
  return best;
};
