import iso from 'stopwords-iso' with { type: 'json' };

/**
 * Stop words. Polish and German come from stopwords-iso (MIT). Its English list also holds content
 * words ("test", "value", "results", "home"), which would hide real topics, so English uses this
 * shorter list of function words written for the project.
 */
const EN = `a about above after again against all am an and any are aren't as at be because been before being below between both but by
can cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't have haven't having
he her here hers herself him himself his how i if in into is isn't it it's its itself just let's me more most my myself no nor not of off on once
only or other ought our ours ourselves out over own same she should shouldn't so some such than that that's the their theirs them themselves then
there there's these they this those through to too under until up very was wasn't we were weren't what when where which while who whom why with
won't would wouldn't you your yours yourself yourselves also will may might must shall can't us via per etc its one two three many much every
each either neither yet still even ever already than though although whether upon within without also get got gets its into onto`;

const sets: Record<string, Set<string>> = {
  en: new Set(EN.split(/\s+/).filter(Boolean)),
  pl: new Set((iso as Record<string, string[]>).pl),
  de: new Set((iso as Record<string, string[]>).de),
};

/** Stop words of a language; unknown languages use the English list plus their stopwords-iso list. */
export const stopwordsFor = (lang: string): Set<string> => {
  const known = sets[lang];
  if (known) return known;
  const other = (iso as Record<string, string[]>)[lang] ?? [];
  const merged = new Set([...(sets.en ?? []), ...other]);
  sets[lang] = merged;
  return merged;
};

/**
 * General-language words: adverbs of frequency and degree, indefinite pronouns, reporting and
 * opinion verbs, vague nouns and evaluative adjectives. Any text on any topic uses them, so a SERP
 * "agreeing" on them says nothing about the topic: they never become a target term or an attribute
 * (a filler page's "said, sometimes, something" are not what a reader misses). Stop words are
 * already out; these are the content-looking words the stop lists leave in.
 */
const GENERAL: Record<string, string> = {
  en: `always sometimes often usually generally never really quite probably perhaps maybe hopefully certainly
simply actually basically clearly easily finally today now something anything everything nothing someone anyone
everyone nobody somebody anybody everybody another others thing things way ways lot lots kind sort said say says
saying thought think thinks found seen looked believed considered mentioned heard agreed claimed noticed decided
done made given kept going want wants wanted people person ability advice good better great certain different
important various able whole becomes become comes decision depend depends appears changed confident decides
carefully among question issue put puts use used uses using keep keeps half take takes taken give gives gets
goes come rather well`,
  pl: `zawsze czasem czasami często zwykle zazwyczaj nigdy naprawdę raczej chyba pewnie właściwie dokładnie głównie
ogóle coś ktoś każdy wszystko nic nikt rzecz rzeczy osoba osoby osób ludzie ludzi dobry dobra dobre dobrze lepiej
lepszy najlepiej pewnym pewien pewnej pewne różnych różne niektórych niektóre bywa mówi mówią powiedziane uważa
uważane uznawana uznawane zostało zostać zostanie temat tematu kwestia pytanie pytaniu odpowiedź czym czego czymś
samo same należy mógłby naszej naszym wiedzieć chodzi dzięki chociaż wciąż nieco szczególnie związku przypadku
przypadkach większości każdą całą całej istotna ważne ważny najczęściej częściej potem następnie dopiero`,
  de: `manchmal häufig meist meistens allgemein einfach wirklich etwas jemand art weise leute menschen gut besser
wichtig verschiedene unterschiedlich ebenfalls wobei bevor heraus früh gleichzeitig heißt angesehen gegeben
gelassen empfunden überlegt fragen thema schöne lassen liegt helfen hilft bleibt mehrere deutlich brauchen braucht`,
};
/** Address fragments are not words of any language. */
const ADDRESS = ['http', 'https', 'www'];

const generalSets: Record<string, Set<string>> = {};

/** General-language words of a language (English's for a language without a list). */
export const generalWordsFor = (lang: string): Set<string> =>
  (generalSets[lang] ??= new Set([...(GENERAL[lang] ?? GENERAL.en ?? '').split(/\s+/).filter(Boolean), ...ADDRESS]));

/** Letters a language's own words never hold (Polish has no q, v, x; English none of ą or ß). */
const FOREIGN_LETTERS: Record<string, RegExp> = {
  pl: /[qvxäöüß]/u,
  en: /[ąćęłńśźżäöüß]/u,
  de: /[ąćęłńśźż]/u,
};

/**
 * Whether a word can be a word of the page's language: no letter the language lacks, and, on a
 * non-English page, not an English function or general word the language does not share (an
 * English page quoted inside a Polish SERP must not hand a Polish report "example" or "always").
 */
export const inLanguage = (word: string, lang: string): boolean => {
  if (FOREIGN_LETTERS[lang]?.test(word)) return false;
  if (lang === 'en') return true;
  const own = stopwordsFor(lang);
  return own.has(word) || !(stopwordsFor('en').has(word) || generalWordsFor('en').has(word));
};
