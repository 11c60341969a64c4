import { escape } from 'html-escaper';

/** Markup that is already safe (built by `html` itself); anything else interpolated is escaped. */
export class Safe {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

type Part = Safe | string | number | null | undefined | false | readonly Part[];

const render = (v: Part): string => {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Safe) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escape(String(v));
};

/**
 * The one way the report pages build markup: every interpolated value is escaped (text and
 * attribute values alike, quotes included), unless it is itself the output of `html`. Audited text
 * can therefore never become markup, whatever it holds.
 */
export const html = (strings: TemplateStringsArray, ...values: Part[]): Safe =>
  new Safe(strings.reduce((out, s, i) => out + s + (i < values.length ? render(values[i]!) : ''), ''));

/** An address for href: only http(s), else null (a `javascript:` or `data:` address is never a link). */
export const safeHref = (url: string | null | undefined): string | null => {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
};
