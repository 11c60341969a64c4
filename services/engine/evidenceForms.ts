import type { Sentence } from './types.ts';

/**
 * More forms of checkable support (issue 24, item 2), beside evidence.ts's basic ones: a quotation
 * that runs over several sentences, a publisher named in the possessive before its document
 * ("Ofgem's guidance"), an institution named by its own capitalised word ("Max-Planck-Institut"),
 * the identifier of a label, standard or legal act ("RAL-GZ 830", "Directive 2010/31/EU"), and a
 * maker's document ("the Bosch manual recommends"). Kept apart so each list stays short.
 */

/**
 * Speech verbs in en/pl/de: who said it, not "according to" (shared with evidence.ts). Bounded by
 * letters, not \b, which reads "ł" and "ä" as non-word characters ("powiedział" never matched).
 */
export const REPORTING =
  /(?<![\p{L}])(?:says?|said|explains?|explained|told|tells|notes?|noted|writes?|wrote|adds?|added|warns?|warned|recalls?|assures?|assured|stresse[sd]|insists?|insisted|mówi|mówił[a]?|powiedział[a]?|dodał[a]?|stwierdza|stwierdził[a]?|zaznacza|zaznaczył[a]?|tłumaczy|tłumaczył[a]?|ocenia|ocenił[a]?|twierdzi|zapewnia|zapewnił[a]?|podkreśla|podkreślił[a]?|przekonuje|przekonywał[a]?|wyjaśnia|wyjaśnił[a]?|zauważa|pisze|dodaje|ostrzega|przypomina|sagt|sagte|erklärt|erklärte|betont|betonte|versichert|versicherte|unterstreicht|meint|warnt|schreibt|ergänzt)(?![\p{L}])/iu;
/** Two capitalised words in a row ("Helen Carter"), anywhere after the sentence's first word. */
export const NAME = /\s\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?\s+\p{Lu}\p{Ll}+/u;

// Reported speech of a named person: "Anna Nowak, head of …, assured that …", "Zbigniew Kras
// zapewnił, że …": the name (which may open the sentence), a speech verb, then its that-clause.
const NAME_AT_START = /^[\s"“„']*\p{Lu}\p{Ll}+(?:-\p{Lu}\p{Ll}+)?\s+\p{Lu}\p{Ll}+/u;
const THAT_CLAUSE = /^[^.!?]{0,80}?(?<![\p{L}])(?:that|że|iż|dass)(?![\p{L}])/u;
// Direct speech opened by a dash, as Polish (and some German) news writes it: "– Nie planujemy
// podwyżek – powiedział." The speaker follows the closing dash: a speech verb or a name.
const DASH_SPEECH = /^[\s]*[–—]\s*\p{L}[^–—]{8,}\s[–—]\s*(.*)$/u;
export const dashSpeech = (text: string): boolean => {
  const m = DASH_SPEECH.exec(text);
  if (!m) return false;
  const after = m[1] ?? '';
  return REPORTING.test(after.split(/\s+/).slice(0, 3).join(' ')) || NAME_AT_START.test(after);
};
export const reportedSpeech = (text: string): boolean => {
  const verb = REPORTING.exec(text);
  if (!verb || !(NAME.test(text) || NAME_AT_START.test(text))) return false;
  return THAT_CLAUSE.test(text.slice(verb.index + verb[0].length));
};

// A publisher in the possessive before its document, within three words: "Nikon's own service
// records", "Ofgem's guidance", "the UN's climate report", "eBay's sales rankings" (a
// name may open lower-case before its capital). Group 1: the words between.
const POSSESSIVE_DOC =
  /(?<![\p{L}\p{N}])(?:\p{Lu}|\p{Ll}\p{Lu})[\p{L}&.-]*['’]s\s+((?:[\p{L}-]+\s+){0,3}?)(?:records?|figures|data|statistics|survey|study|report|review|guidance|guidelines?|guide|analysis|estimates?|census|bulletin|manual|handbook|curriculum|standards?|regulations?|directive|rules|advice|recommendations?|research|tests?|measurements?|scores|ratings|rankings|index)(?![\p{L}])/u;
// At a sentence's start a capital says nothing ("Author's review log"): there the possessor must be
// an acronym or its document follow at once ("Ofgem's guidance", "Nikon's own records").
const OPENING = /^[\s"“„'‘(]*$/u;
const ACRONYM = /^[\s"“„'‘(]*\p{Lu}[\p{L}&.-]*\p{Lu}/u;

// An institution by its own capitalised word, alone or after a hyphen ("Max-Planck-Institut",
// "Bundesanstalt für Wasserbau", "Instytut Lotnictwa"): evidence.ts reads compounds. A German
// plural ("Labore", "Behörden", "Universitäten") names no one body.
const INSTITUTION_HEAD =
  /(?:Institut|Institute|Instytut|Anstalt|anstalt|Agentur|Behörde|behörde|Zentrum|Centrum|Center|Centre|Laboratory|Laboratorium|Labor|Bureau|Biuro|Inspektorat|Inspekcja|Komenda|Policja|Police|Universität|University|Uniwersytet|Politechnika|Hochschule|Stiftung|Verband|Foundation|Fundacja)(?!(?:e|en|n)(?!\p{Ll}))\p{Ll}{0,3}(?!\p{Ll})/u;

// A publication named after its kind: "der Zeitschrift Öko-Test", "Gazety Wyborczej" after
// "dziennika", "the magazine Which?": the name follows the word at once, capitalised or in quotation marks.
const PUBLICATION =
  /(?<![\p{L}])(?:magazine|newspaper|journal|periodical|magazyn\p{Ll}*|czasopism\p{Ll}*|gazet\p{Ll}*|dziennik\p{Ll}*|tygodnik\p{Ll}*|miesięczni\p{Ll}*|[Zz]eitschrift|[Zz]eitung|[Mm]agazin\p{Ll}*|\p{Lu}\p{Ll}+(?:zeitschrift|zeitung|magazin))\s+[„“"«]?\p{Lu}/u;

// The identifier of a label, standard or legal act: a hyphenated upper-case code with a number
// ("RAL-GZ 830"), an EU act's number ("(EU) 2019/2020", "2010/31/EU"), a Polish
// Journal of Laws reference ("Dz.U. 2023 poz. 1225").
const IDENTIFIER =
  /(?<![\p{L}\p{N}])(?:\p{Lu}{2,}(?:-\p{Lu}{1,})+\s?\d{2,}|\((?:EU|EG|EWG|EC|EEC|UE|WE)\)\s*(?:No\.?\s*|Nr\.?\s*)?\d{2,4}\/\d{1,4}|\d{4}\/\d{1,4}\/(?:EU|EG|EC|UE|WE)\b|Dz\.\s?U\.)/u;

// A document a maker or body publishes, named with the maker (en/pl, where a capitalised word
// after the first is a name): "the Bosch manual recommends", "instrukcja pieca Vaillant zaleca".
const DOCUMENT =
  /(?<![\p{L}])(?:manual|instructions|datasheet|data sheet|handbook|leaflet|guide|instrukcj\p{L}*|dokumentacj\p{L}*|kart\p{Ll}* katalogow\p{L}*|ulotk\p{L}*|poradnik\p{L}*)(?![\p{L}])/iu;
const MID_NAME = /\s\p{Lu}[\p{Ll}\p{Lu}]+/u;
// A cited source stating, measuring or counting something (beside evidence.ts's CITED).
const STATES =
  /(?<![\p{L}])(?:zaleca\p{L}*|podaje|podaj\p{L}*|opis\p{L}*|według|wg|measured|counted|recorded|according|gemessen|ermittelt\p{L}*|erhoben|gezählt|festleg\p{L}*|legt\p{L}* fest|regelt|vorschreib\p{L}*|schreibt vor|laut|zufolge|zmierzył\p{L}*|policzył\p{L}*|odnotował\p{L}*|stwierdz\p{L}*)(?![\p{L}])/iu;

// Cheap tests first: each form needs its mark (a possessive, a digit), so most sentences skip the
// longer patterns (the engine reads every sentence of every re-scored variant).
const possessiveDoc = (text: string): boolean => {
  if (!/['’]s\s/u.test(text)) return false;
  const m = POSSESSIVE_DOC.exec(text);
  if (!m) return false;
  if (!OPENING.test(text.slice(0, m.index)) || ACRONYM.test(text)) return true;
  return (
    (m[1] ?? '')
      .replace(/^own\s+/iu, '')
      .trim()
      .split(/\s+/u)
      .filter(Boolean).length <= 1
  );
};
const identifier = (text: string): boolean => /\d|Dz\./u.test(text) && IDENTIFIER.test(text);

/** A source named by one of these forms (a publisher's document, an institution, an identifier). */
export const namesSourceMore = (text: string): boolean =>
  possessiveDoc(text) || INSTITUTION_HEAD.test(text) || identifier(text) || PUBLICATION.test(text);

// Who counted or measured the figure, as reports say it: "the city's crews found that 41 %",
// "the council counted 2,300 limbs", "inspektorzy odnotowali 12 %", "der Verein zählte 400".
const FINDING =
  /(?<![\p{L}])(?:found|counted|measured|recorded|logged|tallied|surveyed|odnotował[aoy]?|odnotowali|policzył[aoy]?|policzyli|zmierzył[aoy]?|zmierzyli|stwierdził[aoy]?|stwierdzili|wykazał[aoy]?|wykazali|zählte[n]?|maß|maßen|ermittelte[n]?|verzeichnete[n]?|stellte[n]? fest)(?![\p{L}])/u;
// A dated finding, or a named finder: a capitalised word after the sentence's first (in German,
// which capitalises every noun, an acronym).
const DATED = /(?<![\p{N}.,])(?:19|20)\d\d(?![\p{N}])/u;
const NAMED: Record<string, RegExp> = { de: /\s\p{Lu}{2,}(?![\p{L}])/u, other: /\s\p{Lu}\p{Ll}+/u };

/**
 * A figure whose finder the sentence names: a finding verb and a name or a year beside it. Not
 * "experts say 90 %": a finding verb is what a count or a measurement reports.
 */
export const attributedFinding = (text: string, lang: string): boolean => {
  if (!FINDING.test(text)) return false;
  const rest = text.replace(/^\S+\s*/u, '');
  return DATED.test(text) || (NAMED[lang] ?? NAMED.other!).test(rest);
};

// A legal provision, cited as lawyers cite it: the section sign with its number ("§ 14 der
// Heizkostenverordnung", "§ 535 BGB"), a Polish article of an act ("art. 6 ust. 1 ustawy o …",
// "art. 471 Kodeksu cywilnego", or the act first: „Ustawa z dnia 21 listopada 1996 r. o muzeach w
// art. 10 ust. 3 …”, its date's "r." no end), an English section of a named Act or Regulations
// ("section 9 of the Consumer Rights Act 2015"). "Section 3 of this guide" and "Artikel 5" (an
// item) are no citation.
const LEGAL = [
  /(?<![\p{L}\p{N}])§§?\s?\d+/u,
  /(?<![\p{L}])art\.\s?\d+[^.!?]{0,40}?(?<![\p{L}])(?:ustaw\p{Ll}*|kodeks\p{Ll}*|rozporządzeni\p{Ll}*|dyrektyw\p{Ll}*)/iu,
  /(?<![\p{L}])(?:(?:ustaw\p{Ll}*|rozporządzeni\p{Ll}*)\s+(?:z\s+dnia|o)\s|kodeks\p{Ll}*\s+\p{Ll}+)(?:[^.!?]|(?<=\d\s?r)\.){0,80}?(?<![\p{L}])art\.\s?\d+/iu,
  /(?<![\p{L}])(?:[Ss]ection|[Rr]egulation|[Aa]rticle)\s+\d+[a-z]?(?:\(\d+\))?\s+of\s+the\s+(?:\p{Lu}[\p{L}-]*\s+){1,6}(?:Act|Regulations?|Directive|Code)(?![\p{L}])/u,
];
const legal = (text: string): boolean => /\d/u.test(text) && LEGAL.some((re) => re.test(text));

// A paper cited as bibliographies cite it: its volume ("vol. 91", "Bd. 12", "Jg. 7", "tom 3"), its
// page range ("pp. 112–118", "S. 12–18", "s. 45-52"), "et al." with its year, or a DOI.
const BIBLIOGRAPHIC = [
  /(?<![\p{L}])(?:[Vv]ol\.|[Vv]olume|Bd\.|Jg\.|[Tt]om)\s?\d+/u,
  /(?<![\p{L}])(?:pp|S|s)\.\s?\d+\s?[–-]\s?\d+/u,
  /(?<![\p{L}])et al\.?,?\s*\(?(?:19|20)\d\d/u,
  /(?<![\p{L}])doi(?::|\.org\/)\s?10\.\d+/iu,
];
const bibliographic = (text: string): boolean => /\d/u.test(text) && BIBLIOGRAPHIC.some((re) => re.test(text));

/**
 * A citation by one of these forms: a publisher's document, an identifier, a legal provision, a
 * bibliographic reference, or a named source that states.
 */
export const citesMore = (text: string, lang: string): boolean => {
  if (possessiveDoc(text) || identifier(text) || legal(text) || bibliographic(text)) return true;
  if (INSTITUTION_HEAD.test(text) && STATES.test(text)) return true;
  // A maker's document: outside German (which capitalises every noun) a capitalised word after the
  // first names the maker.
  const rest = text.replace(/^\S+\s*/, '');
  return lang !== 'de' && DOCUMENT.test(text) && MID_NAME.test(rest) && STATES.test(text);
};

// A quoted span: an opening mark, then no other quotation mark, then a closing one (German „…“,
// Polish „…”, English “…” or "…"). Single marks are left out: they double as apostrophes.
const SPAN = /[“„«"]([^“”„«»"]+)[”“»"]/gu;
const MIN_QUOTE_WORDS = 5;

const DASH_OPENS = /^\s*[–—]\s*\p{L}/u;
const DASH_CLOSES = /\s[–—]\s/u;
/** How many sentences one dash-opened speech may run to before its attribution. */
const DASH_SPAN = 5;

/**
 * Dash speech over several sentences of one block ("– Ceny rosną. Oferta też musi rosnąć – mówi
 * X."): from a sentence the dash opens to the one whose closing dash names the speaker. Before,
 * only the last sentence counted, and the rest of the quotation read as the writer's own prose.
 */
const spanningDashSpeech = (g: Sentence[]): Sentence[] => {
  const out: Sentence[] = [];
  for (let i = 0; i < g.length; i++) {
    if (!DASH_OPENS.test(g[i]!.text) || dashSpeech(g[i]!.text)) continue;
    let text = g[i]!.text;
    for (let j = i + 1; j < g.length && j <= i + DASH_SPAN && !DASH_OPENS.test(g[j]!.text); j++) {
      text += ` ${g[j]!.text}`;
      if (!DASH_CLOSES.test(g[j]!.text)) continue;
      if (dashSpeech(text)) out.push(...g.slice(i, j + 1));
      i = j;
      break;
    }
  }
  return out;
};

/**
 * Sentences of quotations that run over more than one sentence (the splitter cuts them), when the
 * text around the quotation says who spoke: a speech verb or a name. When the attribution ends
 * before the name (an abbreviated title cut the sentence: "– mówi dr n. med."), the next sentence
 * of the block is the name and goes with it.
 */
export const spanningQuotes = (sentences: Sentence[]): Sentence[] => {
  const blocks = new Map<string, Sentence[]>();
  for (const s of sentences) {
    const k = `${s.section}:${s.block}:${s.kind}`;
    const g = blocks.get(k);
    if (g) g.push(s);
    else blocks.set(k, [s]);
  }
  const out: Sentence[] = [];
  for (const g of blocks.values()) {
    if (g.length >= 2) out.push(...spanningDashSpeech(g));
    if (g.length < 2 || !g.some((s) => /[“„«"]/u.test(s.text))) continue;
    let text = '';
    const starts = g.map((s) => {
      const at = text.length;
      text += `${s.text} `;
      return at;
    });
    const indexAt = (pos: number) => starts.findLastIndex((at) => at <= pos);
    const attributed = new Set<number>();
    for (const m of text.matchAll(SPAN)) {
      const from = m.index;
      const to = from + m[0].length;
      if ((m[1] ?? '').trim().split(/\s+/).length < MIN_QUOTE_WORDS) continue;
      const first = indexAt(from);
      const last = indexAt(to - 1);
      // Around the quotation, within its first and last sentences.
      const around = `${text.slice(starts[first], from)} ${text.slice(to, (starts[last + 1] ?? text.length) - 1)}`;
      const named = NAME.test(` ${around}`);
      // A sentence that is all quotation right after an attributed one goes on with the same
      // speaker („…“, sagt X. „…“): the attribution is said once, before.
      const continues = !around.trim() && first > 0 && attributed.has(first - 1);
      if (!named && !REPORTING.test(around) && !continues) continue;
      for (let i = first; i <= last; i++) {
        out.push(g[i]!);
        attributed.add(i);
      }
      const next = g[last + 1];
      if (!named && next && /\.\s*$/u.test(around) && /^\p{Lu}\p{Ll}+\s+\p{Lu}/u.test(next.text)) out.push(next);
    }
  }
  return out;
};
