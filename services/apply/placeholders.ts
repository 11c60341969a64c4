/**
 * An AFTER that asks for facts only the author has: a bracketed gap to fill ("[fill in: ...]",
 * "[uzupełnij: ...]", "[source]", "[X%]"), or a figure left as a letter ("X%", "N zł"). Such a
 * text cannot be written into the article automatically (2.5 authorDataOnly).
 */
// Whole words only, and never a Markdown link's text ("[What you need to add](#…)" is a link).
const BRACKETED =
  /\[(?:[^\]\n]*?(?<!\p{L})(?:fill|add|insert|your|source|cite|todo|tbd|uzupełnij|dodaj|wstaw|źródło|podaj|wpisz|ergänzen|einfügen|quelle)(?!\p{L})[^\]\n]*|\s*(?:x|n|\.\.\.|…)\s*%?)\](?!\()/iu;
const LETTER_FIGURE = /(?:^|[\s(])(?:X|N|XX|NN)\s?(?:%|zł|PLN|EUR|USD|€|\$|km|kg|min|h|lat|years?)(?=$|[\s.,;:)])/u;
const ELLIPSIS_GAP = /_{3,}|\.{3}\s*\]/iu;
const FILL_TAG = /<\s*(?:fill|uzupełnij)/iu;

/**
 * A `<fill …>` gap: as /<\s*(?:fill|uzupełnij)[^>]*>/ finds it, but read once. The first such
 * opening either has a `>` after it or none does; the expression scanned from every opening to the
 * end again, and 30,000 `<fill` without a `>` in one AFTER took half a minute.
 */
const fillTag = (s: string): boolean => {
  const m = FILL_TAG.exec(s);
  return m !== null && s.includes('>', m.index + m[0].length);
};

export const needsAuthorData = (after: string): boolean =>
  BRACKETED.test(after) || LETTER_FIGURE.test(after) || ELLIPSIS_GAP.test(after) || fillTag(after);

/**
 * Of the gaps an AFTER leaves, those a writer model may fill (issue 13 point 7): an answer, a
 * definition, an explanation. A gap asking for the author's own facts (a price, an exact figure, a
 * source, first-hand practice, a product's value) stays the author's even with a model.
 */
const FIRST_HAND =
  /\b(?:own|your|practice|experience|price|cost|exact|figure|statistic|source|cite|date)\b|%|własn|praktyk|cen[ayę]|koszt|dokładn|źródł|eigene|Preis|Kosten|genaue|Quelle|:\s*(?:value|wartość|Wert)\s*\]/iu;
const GAPS = /\[[^\]\n]*\]|(?:^|[\s(])(?:X|N|XX|NN)\s?(?:%|zł|PLN|EUR|USD|€|\$)|_{3,}/gu;

export const writableByModel = (after: string): boolean => {
  if (!needsAuthorData(after)) return false;
  const gaps = after.match(GAPS) ?? [];
  return gaps.length > 0 && gaps.every((g) => g.startsWith('[') && !FIRST_HAND.test(g));
};
