import { AppError } from '../../core/errors.ts';
import { keywordCase, t } from './labels.ts';
import type { Csi, Doc, Intent, KeywordInfo, ProfileId } from './types.ts';

/**
 * Central Search Intent: the central entity (the keyword without intent modifiers and verbs), the
 * source context (what the site does with the page: shop, publisher, affiliate, service), the
 * central search intent (the need joining them) and the predicate (the keyword's verb, else the
 * relation the page type implies). Fails with csi_failed when the keyword leaves no entity or the
 * text has no words to analyse.
 */

const SOURCE: Record<ProfileId, [string, string]> = {
  article: ['publisher: editorial article', 'wydawca: artykuł redakcyjny'],
  'how-to': ['publisher: practical guide', 'wydawca: poradnik praktyczny'],
  listicle: ['publisher or affiliate: curated list', 'wydawca lub afiliacja: zestawienie'],
  comparison: ['affiliate or publisher: comparison', 'afiliacja lub wydawca: porównanie'],
  review: ['affiliate or publisher: review', 'afiliacja lub wydawca: recenzja'],
  product: ['shop: product page', 'sklep: strona produktu'],
  category: ['shop: category listing', 'sklep: lista kategorii'],
  landing: ['service: lead generation', 'usługa: pozyskiwanie klientów'],
  glossary: ['publisher: reference entry', 'wydawca: hasło encyklopedyczne'],
  news: ['publisher: news report', 'wydawca: wiadomość'],
};

const PREDICATE: Record<Intent, [string, string]> = {
  informational: ['explains', 'wyjaśnia'],
  instructional: ['shows how to', 'pokazuje, jak'],
  comparison: ['compares', 'porównuje'],
  commercial: ['compares', 'porównuje'],
  transactional: ['sells', 'sprzedaje'],
  local: ['locates', 'wskazuje'],
  navigational: ['leads to', 'prowadzi do'],
};

const NEED: Record<Intent, [string, string]> = {
  informational: ['understand {p} {e}', 'zrozumieć: {p} {e}'],
  instructional: ['{p} {e}, step by step', '{p} {e} krok po kroku'],
  comparison: ['weigh {e} against each other and choose', 'porównać i wybrać: {e}'],
  commercial: ['compare options and choose {e}', 'porównać opcje i wybrać: {e}'],
  transactional: ['buy {e} at a good price', 'kupić w dobrej cenie: {e}'],
  local: ['find {e} nearby', 'znaleźć w pobliżu: {e}'],
  navigational: ['reach {e}', 'dotrzeć do: {e}'],
};

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
  const [srcEn, srcPl] = SOURCE[profile];
  const predicate = kw.verb || t(lang, PREDICATE[kw.intent][0], PREDICATE[kw.intent][1]);
  const [needEn, needPl] = NEED[kw.intent];
  const entity = shownEntity(kw);
  // German puts the verb last ("Berliner selber machen"): the task reads in the keyword's order.
  // Elsewhere it reads as the keyword says it, from the verb to the entity ("bleed a radiator").
  const lower = kw.text.toLowerCase();
  const vi = kw.verb ? lower.indexOf(kw.verb) : -1;
  const ei = vi >= 0 ? lower.indexOf(entity, vi + kw.verb.length) : -1;
  const object = ei > vi ? lower.slice(vi + kw.verb.length, ei + entity.length).trim() : entity;
  const how = kw.verb && lang !== 'de' ? t(lang, `how to ${kw.verb}`, `jak ${kw.verb}`) : '';
  const need = t(lang, needEn, needPl)
    .replace('{p} ', how ? `${how} ` : '')
    .replace('{p}', how)
    .replace('{e}', keywordCase(kw.verb && lang === 'de' ? `${entity} ${kw.verb}` : how ? object : entity, kw.text));
  return {
    centralEntity: keywordCase(entity, kw.text),
    sourceContext: t(lang, srcEn, srcPl),
    centralSearchIntent: `${t(lang, kw.intent, ({ informational: 'informacyjna', instructional: 'instruktażowa', comparison: 'porównawcza', commercial: 'komercyjna', transactional: 'transakcyjna', local: 'lokalna', navigational: 'nawigacyjna' } as Record<Intent, string>)[kw.intent])}: ${need}`,
    predicate,
  };
};
