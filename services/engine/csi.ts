import { AppError } from '../../core/errors.ts';
import { intentLabel, keywordCase, surfaceCase, t } from './labels.ts';
import type { Csi, Doc, Intent, KeywordInfo, ProfileId } from './types.ts';

/**
 * Central Search Intent: the central entity (the keyword without intent modifiers and verbs), the
 * source context (what the site does with the page: shop, publisher, affiliate, service), the
 * central search intent (the need joining them) and the predicate (the keyword's verb, else the
 * relation the page type implies). Fails with csi_failed when the keyword leaves no entity or the
 * text has no words to analyse.
 */

const SOURCE: Record<ProfileId, [string, string, string]> = {
  article: ['publisher: editorial article', 'wydawca: artykuł redakcyjny', 'Verlag: redaktioneller Artikel'],
  'how-to': ['publisher: practical guide', 'wydawca: poradnik praktyczny', 'Verlag: praktischer Ratgeber'],
  listicle: [
    'publisher or affiliate: curated list',
    'wydawca lub afiliacja: zestawienie',
    'Verlag oder Affiliate: Bestenliste',
  ],
  comparison: [
    'affiliate or publisher: comparison',
    'afiliacja lub wydawca: porównanie',
    'Affiliate oder Verlag: Vergleich',
  ],
  review: ['affiliate or publisher: review', 'afiliacja lub wydawca: recenzja', 'Affiliate oder Verlag: Testbericht'],
  product: ['shop: product page', 'sklep: strona produktu', 'Shop: Produktseite'],
  category: ['shop: category listing', 'sklep: lista kategorii', 'Shop: Kategorieseite'],
  landing: ['service: lead generation', 'usługa: pozyskiwanie klientów', 'Dienstleister: Kundengewinnung'],
  glossary: ['publisher: reference entry', 'wydawca: hasło encyklopedyczne', 'Verlag: Lexikoneintrag'],
  news: ['publisher: news report', 'wydawca: wiadomość', 'Verlag: Nachricht'],
};

const PREDICATE: Record<Intent, [string, string, string]> = {
  informational: ['explains', 'wyjaśnia', 'erklärt'],
  instructional: ['shows how to', 'pokazuje, jak', 'zeigt, wie'],
  comparison: ['compares', 'porównuje', 'vergleicht'],
  commercial: ['compares', 'porównuje', 'vergleicht'],
  transactional: ['sells', 'sprzedaje', 'verkauft'],
  local: ['locates', 'wskazuje', 'findet'],
  navigational: ['leads to', 'prowadzi do', 'führt zu'],
};

/**
 * The need, read after "<intent>: ". Polish and German name the entity in quotation marks where
 * their grammar would inflect it, and never with a second colon ("informacyjna: zrozumieć: …").
 */
const NEED: Record<Intent, [string, string, string]> = {
  informational: ['understand {p} {e}', 'zrozumieć temat „{e}”', '„{e}“ verstehen'],
  instructional: ['{p} {e}, step by step', '{p} {e} krok po kroku', '{e} Schritt für Schritt'],
  comparison: ['weigh {e} against each other and choose', 'porównać „{e}” i wybrać', '„{e}“ abwägen und wählen'],
  commercial: [
    'compare options and choose {e}',
    'porównać oferty i wybrać „{e}”',
    'Angebote vergleichen und „{e}“ wählen',
  ],
  transactional: ['buy {e} at a good price', 'kupić „{e}” w dobrej cenie', '„{e}“ günstig kaufen'],
  local: ['find {e} nearby', 'znaleźć w pobliżu „{e}”', '„{e}“ in der Nähe finden'],
  navigational: ['reach {e}', 'dotrzeć do „{e}”', '„{e}“ erreichen'],
};

/** With the keyword's verb ("jak wymienić baterię"), the Polish need reads as the question itself. */
const NEED_HOW_PL: Partial<Record<Intent, string>> = { informational: 'zrozumieć, {p} {e}' };

/** A comparison's entity shown as its sides ("tablet vs laptop"), not its words run together. */
const CONNECTOR = /\s(vs\.?|versus|czy|oder|or)\s/i;
const shownEntity = (kw: KeywordInfo): string => {
  const m = kw.intent === 'comparison' ? CONNECTOR.exec(kw.text) : null;
  if (!m) return kw.entity;
  const words = new Set(kw.entity.split(' '));
  const side = (x: string) =>
    x
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => words.has(w))
      .join(' ');
  const [a, b] = [side(kw.text.slice(0, m.index)), side(kw.text.slice(m.index + m[0].length))];
  return a && b ? `${a} ${(m[1] ?? '').toLowerCase()} ${b}` : kw.entity;
};

export const deriveCsi = (doc: Doc, kw: KeywordInfo, profile: ProfileId): Csi => {
  const lang = doc.language;
  if (!kw.entity || !kw.entityStems.length) {
    throw new AppError(
      'csi_failed',
      `The keyword "${kw.text}" names no entity (only question words, modifiers or verbs), so the central search intent cannot be derived.`,
    );
  }
  if (doc.sentences.length === 0 || doc.words < 10) {
    throw new AppError('csi_failed', 'The content has too little running text to derive the central search intent.');
  }
  // German capitalises its nouns: the entity is written as the page writes it ("Mutter", "Schimmel").
  const shown = (x: string) =>
    lang === 'de' ? surfaceCase(keywordCase(x, kw.text), doc.content) : keywordCase(x, kw.text);
  const [srcEn, srcPl, srcDe] = SOURCE[profile];
  const predicate = kw.verb || t(lang, ...PREDICATE[kw.intent]);
  const [needEn, needPl, needDe] = NEED[kw.intent];
  const entity = shownEntity(kw);
  // German puts the verb last ("Berliner selber machen"): the task reads in the keyword's order.
  // Elsewhere it reads as the keyword says it, from the verb to the entity ("bleed a radiator").
  const lower = kw.text.toLowerCase();
  const vi = kw.verb ? lower.indexOf(kw.verb) : -1;
  const ei = vi >= 0 ? lower.indexOf(entity, vi + kw.verb.length) : -1;
  const object = ei > vi ? lower.slice(vi + kw.verb.length, ei + entity.length).trim() : entity;
  const how = kw.verb && lang !== 'de' ? t(lang, `how to ${kw.verb}`, `jak ${kw.verb}`, `wie man ${kw.verb}`) : '';
  const template = how && lang === 'pl' ? (NEED_HOW_PL[kw.intent] ?? needPl) : t(lang, needEn, needPl, needDe);
  const need = template
    .replace('{p} ', how ? `${how} ` : '')
    .replace('{p}', how)
    .replace('{e}', shown(kw.verb && lang === 'de' ? `${entity} ${kw.verb}` : how ? object : entity));
  return {
    centralEntity: shown(entity),
    sourceContext: t(lang, srcEn, srcPl, srcDe),
    centralSearchIntent: `${intentLabel(kw.intent, lang)}: ${need}`,
    predicate,
  };
};
