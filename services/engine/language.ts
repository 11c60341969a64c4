import { detect } from 'tinyld';

/**
 * Language of the audit: the supplied code wins (spec 4.2); otherwise tinyld on the first part of
 * the main text. An empty or uncertain detection settles on English.
 */
export const resolveLanguage = (text: string, supplied: string | null | undefined): string => {
  const s = (supplied ?? '').trim().toLowerCase();
  if (/^[a-z]{2}$/.test(s)) return s;
  const sample = text.slice(0, 4000);
  const detected = sample.trim() ? detect(sample) : '';
  return /^[a-z]{2}$/.test(detected) ? detected : 'en';
};

/**
 * Keyword auto-detection runs before the language is established and knows only Polish, English
 * and German (spec 4.2): a restricted detection, settling on English otherwise.
 */
export const keywordLanguage = (text: string, supplied: string | null | undefined): 'pl' | 'en' | 'de' => {
  const s = (supplied ?? '').trim().toLowerCase();
  if (s === 'pl' || s === 'en' || s === 'de') return s;
  const sample = text.slice(0, 4000);
  const detected = sample.trim() ? detect(sample, { only: ['en', 'pl', 'de'] }) : '';
  return detected === 'pl' || detected === 'de' ? detected : 'en';
};
