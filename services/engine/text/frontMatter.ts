/**
 * The lines of an article that are about it rather than part of it: the byline ("By <Name>,
 * role", "Autor: …", "Von <Name> …") and the date line ("Updated 6 October 2025"). The engine
 * does not read them as the opening's answer (bluf); apply never takes them as the answer or as
 * the meta description, and keeps a byline under its H1.
 */

/**
 * A byline marker followed by a name: "By Ann Lee," but not "By 2030," or "Von März bis …". The
 * marker is matched in lower case (the first letter is lowered first), the name by its capitals.
 */
const NAMED_BYLINE =
  /^(?:(?:written|reviewed|edited|tested|fact-checked)\s+by|by|von|tekst\s+przygotowa(?:ł|ła|li))\s+\p{Lu}[\p{Ll}'’-]+\s+\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+)?\s*(?:[,.(–—-]|$)/u;
/** A labelled byline: "Author: …", "Autor: …", "Autorin: …". */
const LABELLED_BYLINE = /^(?:author|autor|autorka|autorin|tekst|text)\s*:/iu;
/** A date line: "Updated …", "Last updated …", "Published …", "Aktualizacja: …", "Zuletzt aktualisiert …". */
const DATE_LINE =
  /^(?:(?:last\s+)?updated|published|reviewed\s+on|aktualizacja|zaktualizowano|opublikowano|data\s+publikacji|(?:zuletzt\s+)?aktualisiert|veröffentlicht|stand)\b/iu;
/** A date as bylines write it: 18.03.2025, 2025-03-18, 6 October 2025, 14 marca 2025, March 2025. */
const DATE =
  /\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\.?\s+\p{L}{3,}\.?\s+\d{4}\b|\b\p{L}{3,}\s+\d{1,2},\s+\d{4}\b/u;
/** Past this many words a paragraph is prose, whatever it starts with. */
const MAX_WORDS = 60;
/** A line this short with a date in it is a dateline ("Tomasz Kowal, 18.03.2025"), not a statement. */
const DATELINE_WORDS = 8;

export const isBylineOrDate = (paragraph: string): boolean => {
  const text = paragraph.trim().replace(/^[*_]+/, '');
  const words = (text.match(/\S+/g) ?? []).length;
  if (words > MAX_WORDS) return false;
  const lowered = text.charAt(0).toLowerCase() + text.slice(1);
  return (
    NAMED_BYLINE.test(lowered) ||
    LABELLED_BYLINE.test(text) ||
    DATE_LINE.test(text) ||
    (words <= DATELINE_WORDS && DATE.test(text))
  );
};
