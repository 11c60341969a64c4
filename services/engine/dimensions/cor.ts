import type { DimensionOutcome, Finding, ScoringContext } from '../context.ts';
import { count, sectionLabels, t } from '../labels.ts';
import type { Doc } from '../types.ts';
import { clamp, finding, insertChange, replaceChange, round1 } from './helpers.ts';

/**
 * cor: cost of retrieval, page-level proxies only. A weighted checklist. Fetched HTML: one H1 (2),
 * no skipped heading levels (1.5), valid JSON-LD (2), `lang` matching the content (1), text/HTML
 * ratio ≥ 10% (1), boilerplate ≤ 50% of the body text (1), inline scripts ≤ 20 kB (1), images with
 * alt text (1), no duplicate paragraphs (1), title and meta description (1). Supplied text has no
 * page code, so only the heading hierarchy, duplicates and image alt texts count.
 */

interface Check {
  ok: number;
  w: number;
}

export const scoreCor = (doc: Doc, ctx: ScoringContext): DimensionOutcome => {
  const { lang } = ctx;
  const L = sectionLabels(lang);
  const sig = doc.signals;
  const findings: Finding[] = [];
  const strengths: string[] = [];
  const checks: Check[] = [];

  const headings = doc.blocks.filter((b) => b.kind === 'heading');
  const h1s = headings.filter((b) => b.level === 1);
  const h1Count = doc.format === 'html' ? sig.h1Count : h1s.length;
  checks.push({ ok: h1Count === 1 ? 1 : doc.format !== 'html' && h1Count === 0 ? 0.5 : 0, w: 2 });
  if (h1Count > 1) {
    const extra = h1s[1];
    const change = extra
      ? replaceChange(
          doc,
          extra.raw,
          doc.format === 'html'
            ? extra.raw.replace(/^<h1/i, '<h2').replace(/<\/h1>$/i, '</h2>')
            : extra.raw.replace(/^#\s/, '## '),
        )
      : null;
    findings.push(
      finding({
        kind: 'singleH1',
        title: t(lang, 'Keep a single H1', 'Zostaw jeden nagłówek H1', 'Nur eine H1-Überschrift behalten'),
        problem: t(
          lang,
          `The page has ${h1Count} H1 headings.`,
          `Strona ma ${h1Count} nagłówki H1.`,
          `Die Seite hat ${h1Count} H1-Überschriften.`,
        ),
        suggestion: t(
          lang,
          'Demote the extra H1 to H2.',
          'Zmień dodatkowy H1 na H2.',
          'Stufen Sie die zusätzliche H1 zur H2 herab.',
        ),
        section: extra?.text ?? L.title,
        sectionIndex: 0,
        actionType: 'replace',
        severity: 0.2,
        change,
      }),
    );
  }
  let prev = 1;
  let skipped = 0;
  for (const h of headings) {
    if (h.level > prev + 1) {
      skipped++;
      if (skipped === 1) {
        const fixed = prev + 1;
        const after =
          doc.format === 'html'
            ? h.raw
                .replace(new RegExp(`^<h${h.level}`, 'i'), `<h${fixed}`)
                .replace(new RegExp(`</h${h.level}>$`, 'i'), `</h${fixed}>`)
            : h.raw.replace(/^#+/, '#'.repeat(fixed));
        findings.push(
          finding({
            kind: 'headingLevel',
            title: t(
              lang,
              'Do not skip heading levels',
              'Nie pomijaj poziomów nagłówków',
              'Keine Überschriftenebene überspringen',
            ),
            problem: t(
              lang,
              `"${h.text}" is an H${h.level} right after an H${prev}.`,
              `„${h.text}” to H${h.level} zaraz po H${prev}.`,
              `„${h.text}“ ist eine H${h.level} direkt nach einer H${prev}.`,
            ),
            suggestion: t(lang, `Make it an H${fixed}.`, `Zmień go na H${fixed}.`, `Machen Sie daraus eine H${fixed}.`),
            section: h.text,
            sectionIndex: doc.sections.findIndex((s) => s.heading === h),
            actionType: 'replace',
            severity: 0.15,
            change: replaceChange(doc, h.raw, after),
          }),
        );
      }
    }
    prev = h.level;
  }
  checks.push({ ok: skipped ? 0 : 1, w: 1.5 });

  const seen = new Map<string, number>();
  for (const b of doc.blocks)
    if (b.kind === 'paragraph' && b.text.length > 40) seen.set(b.text, (seen.get(b.text) ?? 0) + 1);
  const dups = [...seen.values()].filter((n) => n > 1).length;
  checks.push({ ok: dups ? 0 : 1, w: 1 });
  if (dups)
    findings.push(
      finding({
        kind: 'duplicate',
        title: t(lang, 'Remove duplicated paragraphs', 'Usuń powtórzone akapity', 'Doppelte Absätze entfernen'),
        problem: `${count(
          lang,
          dups,
          ['paragraph appears', 'paragraphs appear'],
          ['akapit powtarza', 'akapity powtarzają', 'akapitów powtarza'],
          ['Absatz kommt', 'Absätze kommen'],
        )} ${t(lang, 'more than once.', 'się.', 'mehrfach vor.')}`,
        suggestion: t(
          lang,
          'Keep each paragraph once.',
          'Zostaw każdy akapit tylko raz.',
          'Behalten Sie jeden Absatz nur einmal.',
        ),
        section: L.page,
        sectionIndex: 0,
        actionType: 'remove',
        severity: 0.1,
      }),
    );
  const imgs = sig.images;
  const withAlt = imgs.filter((i) => i.alt.trim()).length;
  checks.push({ ok: imgs.length ? withAlt / imgs.length : 1, w: 1 });
  if (imgs.length && withAlt < imgs.length)
    findings.push(
      finding({
        title: t(
          lang,
          'Describe images with alt text',
          'Opisz obrazy tekstem alternatywnym',
          'Bilder mit Alt-Text beschreiben',
        ),
        problem: t(
          lang,
          `${imgs.length - withAlt} of ${imgs.length} images have no alt text.`,
          `${imgs.length - withAlt} z ${imgs.length} obrazów nie ma tekstu alt.`,
          `${imgs.length - withAlt} von ${imgs.length} Bildern haben keinen Alt-Text.`,
        ),
        suggestion: t(
          lang,
          'Add a short alt text saying what each image shows.',
          'Dodaj krótki alt opisujący, co pokazuje obraz.',
          'Ergänzen Sie für jedes Bild einen kurzen Alt-Text, der sagt, was es zeigt.',
        ),
        section: L.page,
        sectionIndex: 0,
        actionType: 'add',
        severity: 0.1,
      }),
    );

  if (doc.format === 'html') {
    const ldOk = sig.jsonLd.length > 0 && sig.jsonLdInvalid === 0;
    checks.push({ ok: ldOk ? 1 : 0, w: 2 });
    if (!ldOk) {
      const ld = {
        '@context': 'https://schema.org',
        '@type': 'Article',
        headline: doc.title.slice(0, 110),
        inLanguage: doc.language,
        author: {
          '@type': 'Person',
          name: sig.author || `${ctx.lex.slot} ${t(lang, 'author name', 'autor', 'Name des Autors')}]`,
        },
        ...(sig.datePublished ? { datePublished: sig.datePublished } : {}),
      };
      findings.push(
        finding({
          kind: 'jsonLd',
          title: sig.jsonLdInvalid
            ? t(lang, 'Fix the structured data', 'Popraw dane strukturalne', 'Strukturierte Daten korrigieren')
            : t(
                lang,
                'Add Article structured data',
                'Dodaj dane strukturalne Article',
                'Strukturierte Daten vom Typ Article ergänzen',
              ),
          problem: sig.jsonLdInvalid
            ? t(
                lang,
                'A JSON-LD block does not parse.',
                'Blok JSON-LD jest niepoprawny.',
                'Ein JSON-LD-Block ist fehlerhaft und lässt sich nicht auslesen.',
              )
            : t(
                lang,
                'The page has no JSON-LD, so its type, author and dates must be guessed.',
                'Strona nie ma JSON-LD, więc typ, autora i daty trzeba zgadywać.',
                'Die Seite hat kein JSON-LD, daher müssen Typ, Autor und Datumsangaben erraten werden.',
              ),
          suggestion: t(
            lang,
            'Add an Article JSON-LD block with author and dates.',
            'Dodaj blok JSON-LD Article z autorem i datami.',
            'Ergänzen Sie einen JSON-LD-Block vom Typ Article mit Autor und Datumsangaben.',
          ),
          section: L.head,
          sectionIndex: doc.sections.length,
          actionType: 'add',
          severity: 0.25,
          change: sig.jsonLdInvalid
            ? null
            : insertChange(doc, 'end', '', `<script type="application/ld+json">${JSON.stringify(ld)}</script>`),
        }),
      );
    } else
      strengths.push(
        t(
          lang,
          `Structured data present (${[...new Set(sig.jsonLdTypes)].slice(0, 3).join(', ')}).`,
          `Są dane strukturalne (${[...new Set(sig.jsonLdTypes)].slice(0, 3).join(', ')}).`,
          `Strukturierte Daten vorhanden (${[...new Set(sig.jsonLdTypes)].slice(0, 3).join(', ')}).`,
        ),
      );
    const langOk = sig.langAttr === doc.language;
    checks.push({ ok: langOk ? 1 : 0, w: 1 });
    if (!langOk) {
      const tag = /<html\b[^>]*>/i.exec(doc.content)?.[0] ?? '';
      const after = tag
        ? /\slang=["'][^"']*["']/i.test(tag)
          ? tag.replace(/\slang=["'][^"']*["']/i, ` lang="${doc.language}"`)
          : tag.replace(/^<html/i, `<html lang="${doc.language}"`)
        : '';
      findings.push(
        finding({
          kind: 'lang',
          title: t(lang, 'Declare the page language', 'Zadeklaruj język strony', 'Die Sprache der Seite angeben'),
          problem: t(
            lang,
            `The html lang attribute is "${sig.langAttr || 'missing'}", the content is "${doc.language}".`,
            `Atrybut lang to „${sig.langAttr || 'brak'}”, a treść jest w języku „${doc.language}”.`,
            `Das lang-Attribut des html-Elements lautet „${sig.langAttr || 'nicht gesetzt'}“, die Sprache des Inhalts ist „${doc.language}“.`,
          ),
          suggestion: t(
            lang,
            `Set lang="${doc.language}".`,
            `Ustaw lang="${doc.language}".`,
            `Setzen Sie lang="${doc.language}".`,
          ),
          section: L.head,
          sectionIndex: doc.sections.length,
          actionType: 'replace',
          severity: 0.1,
          change: tag ? replaceChange(doc, tag, after) : null,
        }),
      );
    }
    const ratio = sig.htmlBytes ? sig.mainTextChars / sig.htmlBytes : 1;
    checks.push({ ok: ratio >= 0.1 ? 1 : ratio >= 0.05 ? 0.5 : 0, w: 1 });
    const boiler = sig.bodyTextChars ? 1 - sig.mainTextChars / sig.bodyTextChars : 0;
    checks.push({ ok: boiler <= 0.5 ? 1 : 0, w: 1 });
    checks.push({ ok: sig.inlineScriptBytes <= 20000 ? 1 : 0, w: 1 });
    checks.push({ ok: (sig.titleTag ? 0.5 : 0) + (sig.metaDescription ? 0.5 : 0), w: 1 });
    if (ratio < 0.1 || boiler > 0.5 || sig.inlineScriptBytes > 20000)
      findings.push(
        finding({
          title: t(
            lang,
            'Reduce page weight around the content',
            'Zmniejsz balast wokół treści',
            'Ballast rund um den Inhalt reduzieren',
          ),
          problem: t(
            lang,
            `Main text is ${Math.round(ratio * 100)}% of the HTML; boilerplate is ${Math.round(boiler * 100)}% of the visible text; inline scripts ${Math.round(sig.inlineScriptBytes / 1000)} kB.`,
            `Tekst główny to ${Math.round(ratio * 100)}% HTML; szablon to ${Math.round(boiler * 100)}% widocznego tekstu; skrypty inline ${Math.round(sig.inlineScriptBytes / 1000)} kB.`,
            `Der Haupttext macht ${Math.round(ratio * 100)} % des HTML aus; wiederkehrende Seitenelemente machen ${Math.round(boiler * 100)} % des sichtbaren Textes aus; Inline-Skripte ${Math.round(sig.inlineScriptBytes / 1000)} kB.`,
          ),
          suggestion: t(
            lang,
            'Move scripts to files and trim repeated navigation and widgets.',
            'Przenieś skrypty do plików i ogranicz powtarzalną nawigację i widżety.',
            'Lagern Sie Skripte in Dateien aus, und reduzieren Sie wiederholte Navigation und Widgets.',
          ),
          section: L.page,
          sectionIndex: 0,
          actionType: 'remove',
          severity: 0.2,
        }),
      );
    if (!sig.metaDescription)
      findings.push(
        finding({
          title: t(lang, 'Add a meta description', 'Dodaj opis meta', 'Meta-Description ergänzen'),
          problem: t(
            lang,
            'The page has no meta description.',
            'Strona nie ma opisu meta.',
            'Die Seite hat keine Meta-Description.',
          ),
          suggestion: t(
            lang,
            'Write a 120–155-character summary that answers the query.',
            'Napisz 120–155 znaków podsumowania z odpowiedzią na zapytanie.',
            'Schreiben Sie eine Zusammenfassung mit 120–155 Zeichen, die die Suchanfrage beantwortet.',
          ),
          section: L.head,
          sectionIndex: doc.sections.length,
          actionType: 'add',
          severity: 0.05,
        }),
      );
  }
  const total = checks.reduce((a, c) => a + c.w, 0);
  const got = checks.reduce((a, c) => a + c.w * c.ok, 0);
  const score = clamp((10 * got) / total);
  if (!skipped && h1Count === 1)
    strengths.push(
      t(
        lang,
        'Clean heading hierarchy with one H1.',
        'Czysta hierarchia nagłówków z jednym H1.',
        'Saubere Überschriftenhierarchie mit einer H1.',
      ),
    );
  return {
    id: 'cor',
    score: round1(score),
    summary: t(
      lang,
      `${checks.filter((c) => c.ok >= 1).length} of ${checks.length} retrieval checks pass${doc.format === 'html' ? '' : ' (text only: no page code to check)'}.`,
      `Zaliczone testy: ${checks.filter((c) => c.ok >= 1).length} z ${checks.length}${doc.format === 'html' ? '' : ' (sam tekst: brak kodu strony)'}.`,
      `Bestandene Prüfungen: ${checks.filter((c) => c.ok >= 1).length} von ${checks.length}${doc.format === 'html' ? '' : ' (nur Text: kein Seitencode zu prüfen)'}.`,
    ),
    strengths,
    findings,
    cap: null,
  };
};
