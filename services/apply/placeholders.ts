/**
 * An AFTER that asks for facts only the author has: a bracketed gap to fill ("[fill in: ...]",
 * "[uzupełnij: ...]", "[source]", "[X%]"), or a figure left as a letter ("X%", "N zł"). Such a
 * text cannot be written into the article automatically (2.5 authorDataOnly).
 */
const BRACKETED = /\[(?:[^\]\n]*?(?:fill|add|insert|your|source|cite|todo|tbd|uzupełnij|dodaj|wstaw|źródło|podaj|wpisz)[^\]\n]*|\s*(?:x|n|\.\.\.|…)\s*%?)\]/iu;
const LETTER_FIGURE = /(?:^|[\s(])(?:X|N|XX|NN)\s?(?:%|zł|PLN|EUR|USD|€|\$|km|kg|min|h|lat|years?)(?=$|[\s.,;:)])/u;
const ELLIPSIS_GAP = /(?:_{3,}|\.{3}\s*\]|<\s*(?:fill|uzupełnij)[^>]*>)/iu;

export const needsAuthorData = (after: string): boolean => BRACKETED.test(after) || LETTER_FIGURE.test(after) || ELLIPSIS_GAP.test(after);
