import type { ShareLang } from '../../events/share/events.ts';
import type { AuditResultV1 } from '../engine/resultSchema.ts';
import { dimensionName } from '../engine/labels.ts';
import { barChart, gauge } from './charts.ts';
import { clientText, cutAtWord, passageText } from './clientText.ts';
import { html, safeHref, type Safe } from './html.ts';
import { labelsFor, type Labels } from './labels.ts';
import { layout } from './layout.ts';

type Recommendation = AuditResultV1['recommendations'][number];
const PRIORITIES = ['critical', 'high', 'medium', 'bonus'] as const;
/** The page anchor of a recommendation: its id as the result, the summary and apply name it. */
const anchorOf = (recId: string): string => recId.replace(':', '-');

export interface ReportOptions {
  lang: ShareLang;
  /** The owner's bar (email and sign-out) on the logged-in page; none on the public page. */
  owner?: { email: string; signOutPath: string } | undefined;
}

const formats = (lang: ShareLang) => {
  const locale = lang === 'pl' ? 'pl-PL' : 'en-GB';
  const n1 = new Intl.NumberFormat(locale, { maximumFractionDigits: 1, minimumFractionDigits: 0 });
  const n0 = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  const date = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });
  return {
    score: (v: number) => n1.format(v),
    int: (v: number) => n0.format(v),
    delta: (v: number) => `${v > 0 ? '+' : v < 0 ? '−' : '±'}${n1.format(Math.abs(v))}`,
    date: (iso: string) => `${date.format(new Date(iso))} UTC`,
  };
};

const link = (url: string, text: string): Safe => {
  const href = safeHref(url);
  return href ? html`<a href="${href}" rel="noopener noreferrer nofollow">${text}</a>` : html`<span>${text}</span>`;
};

/**
 * The report of one completed audit as a page (spec 2.3 in a reader's terms): the CQS gauge and
 * summary card, the ten dimensions as a chart, E-E-A-T, the recommendations by priority with
 * BEFORE and AFTER side by side, the SERP benchmark and the CSI. Labels in `lang`. Every value from
 * the audit is escaped by `html`; the page has no script at all.
 */
export function reportPage(r: AuditResultV1, o: ReportOptions): string {
  const L = labelsFor(o.lang);
  const f = formats(o.lang);
  const s = r.summary;
  const status = s?.status ?? 'critical';
  const cqs = r.scores.cqs;
  const body = html` ${
      o.owner
        ? html`<nav class="owner" aria-label="${L.signedInAs}">
            <span>${L.signedInAs} <strong>${o.owner.email}</strong></span>
            <form method="post" action="${o.owner.signOutPath}"><button type="submit">${L.signOut}</button></form>
          </nav>`
        : ''
    }
    <header class="report-head">
      <p class="eyebrow">${L.subtitle}</p>
      <h1>${L.title}</h1>
      <dl class="facts">
        <div>
          <dt>${L.audited}</dt>
          <dd>${r.input.url ? link(r.input.url, r.input.url) : L.suppliedText}</dd>
        </div>
        <div>
          <dt>${L.keyword}</dt>
          <dd>${r.input.keyword ?? '—'}</dd>
        </div>
        <div>
          <dt>${L.contentType}</dt>
          <dd>${s?.profile.label ?? '—'}</dd>
        </div>
        <div>
          <dt>${L.completed}</dt>
          <dd>${f.date(r.completedAt)}</dd>
        </div>
        ${
          r.input.project
            ? html`<div>
                <dt>${L.project}</dt>
                <dd>${r.input.project}</dd>
              </div>`
            : ''
        }
      </dl>
    </header>
    <main id="summary">
      ${summaryCard(r, L, f, status, cqs)} ${csiSection(r, L)} ${dimensionsSection(r, L, f, o.lang)}
      ${eeatSection(r, L, f)} ${recommendationsSection(r, L, f, o.lang)} ${benchmarkSection(r, L, f)}
    </main>
    <footer class="report-foot"><p>${L.footer}</p></footer>`;
  return layout({ lang: L.htmlLang, title: `${L.title}: ${r.input.keyword ?? r.input.url ?? ''}`, body });
}

type F = ReturnType<typeof formats>;

function summaryCard(r: AuditResultV1, L: Labels, f: F, status: string, cqs: number | null): Safe {
  const s = r.summary;
  const top10 = s?.top10AvgCqs ?? null;
  return html`<section class="card summary" aria-labelledby="h-summary">
    <h2 id="h-summary">${L.summary}</h2>
    <div class="summary-grid">
      <div class="score-block">
        ${gauge(cqs, status, L.cqs, cqs === null ? '—' : f.int(cqs))}
        <p class="score-name">${L.cqs}</p>
        <p class="status status-${status}">
          <span class="dot dot-${status}" aria-hidden="true"></span>${L.status[status] ?? status}
          <span class="muted">(${L.statusNote[status] ?? ''})</span>
        </p>
      </div>
      <div class="summary-facts">
        <div class="stat-row">
          <div class="stat">
            <span class="stat-value">${s ? f.int(s.problemCounts.critical) : '—'}</span
            ><span class="stat-label">${L.criticalCount}</span>
          </div>
          <div class="stat">
            <span class="stat-value">${s ? f.int(s.problemCounts.high) : '—'}</span
            ><span class="stat-label">${L.highCount}</span>
          </div>
          <div class="stat">
            <span class="stat-value">${s ? f.int(s.problemCounts.total) : '—'}</span
            ><span class="stat-label">${L.problems} ${L.totalCount}</span>
          </div>
          <div class="stat">
            <span class="stat-value">${top10 === null ? '—' : f.score(top10)}</span
            ><span class="stat-label">${L.top10}${top10 === null ? html` (${L.top10None})` : ''}</span>
          </div>
        </div>
        ${top10 !== null && cqs !== null ? html`<p class="versus">${L.vsTop10(Math.round(cqs - top10))}</p>` : ''}
        ${
          s?.topChange
            ? html`<div class="top-change">
                <h3>${L.topChange}</h3>
                <p>
                  <strong>${clientText(s.topChange.title)}</strong>
                  <a class="rec-id" href="#${anchorOf(s.topChange.id)}">${s.topChange.id}</a>
                </p>
                <p class="muted">${clientText(s.topChange.impact)}</p>
              </div>`
            : ''
        }
        ${
          s && s.quickWins.length
            ? html`<div class="quick-wins">
                <h3>${L.quickWins}</h3>
                <ul>
                  ${s.quickWins.map(
                    (q) =>
                      html`<li>${clientText(q.label)} <a class="rec-id" href="#${anchorOf(q.id)}">${q.id}</a></li>`,
                  )}
                </ul>
              </div>`
            : ''
        }
      </div>
    </div>
  </section>`;
}

function csiSection(r: AuditResultV1, L: Labels): Safe {
  return html`<section class="card" aria-labelledby="h-csi">
    <h2 id="h-csi">${L.csi}</h2>
    <dl class="csi">
      <div>
        <dt>${L.centralEntity}</dt>
        <dd>${clientText(r.csi.centralEntity)}</dd>
      </div>
      <div>
        <dt>${L.centralSearchIntent}</dt>
        <dd>${clientText(r.csi.centralSearchIntent)}</dd>
      </div>
      <div>
        <dt>${L.sourceContext}</dt>
        <dd>${clientText(r.csi.sourceContext)}</dd>
      </div>
      <div>
        <dt>${L.predicate}</dt>
        <dd>${clientText(r.csi.predicate)}</dd>
      </div>
    </dl>
  </section>`;
}

function dimensionsSection(r: AuditResultV1, L: Labels, f: F, lang: ShareLang): Safe {
  const bars = r.dimensions.map((d) => ({
    label: dimensionName(d.id, lang),
    score: d.score,
    formatted: f.score(d.score),
  }));
  return html`<section class="card long" aria-labelledby="h-dim">
    <h2 id="h-dim">${L.dimensions}</h2>
    ${barChart(bars, L.dimensionsChart)}
    <div class="dimension-list">
      ${r.dimensions.map(
        (d) =>
          html`<article class="dimension">
            <h3><span>${dimensionName(d.id, lang)}</span> <span class="pill">${f.score(d.score)}${L.outOf10}</span></h3>
            <p class="muted">${clientText(d.summary)}</p>
            ${
              d.strengths.length
                ? html`<h4>${L.strengths}</h4>
                    <ul class="ticks">
                      ${d.strengths.map((x) => html`<li>${clientText(x)}</li>`)}
                    </ul>`
                : ''
            }
            ${
              d.problems.length
                ? html`<h4>${L.issues}</h4>
                    <ul class="problems">
                      ${d.problems.map((p) => html`<li><strong>${clientText(p.title)}</strong> ${clientText(p.problem)} <span class="suggestion">${L.suggestion}: ${clientText(p.suggestion)}</span></li>`)}
                    </ul>`
                : ''
            }
          </article>`,
      )}
    </div>
  </section>`;
}

function eeatSection(r: AuditResultV1, L: Labels, f: F): Safe {
  const e = r.eeat;
  if (!e)
    return html`<section class="card" aria-labelledby="h-eeat">
      <h2 id="h-eeat">${L.eeat}</h2>
      <p>${L.eeatNone}</p>
    </section>`;
  const keys = ['experience', 'expertise', 'authority', 'trust'] as const;
  const bars = keys.map((k) => ({ label: L.eeatNames[k]!, score: e[k], formatted: f.score(e[k]) }));
  return html`<section class="card" aria-labelledby="h-eeat">
    <h2 id="h-eeat">${L.eeat} <span class="pill">${L.eeatNames.average}: ${f.score(e.average)}${L.outOf10}</span></h2>
    ${barChart(bars, L.eeatChart)}
  </section>`;
}

function beforeBlock(rec: Recommendation, L: Labels): Safe {
  if (rec.before) return html`<blockquote>${passageText(rec.before)}</blockquote>`;
  const where = rec.insertAt;
  return html`<p class="empty">
      ${L.beforeEmpty}${where ? html` — ${where.placement === 'after' ? L.insertAfter : where.placement === 'before' ? L.insertBefore : L.insertEnd}${where.anchor ? html`:` : ''}` : ''}
    </p>
    ${where?.anchor ? html`<blockquote class="anchor">${anchorText(where.anchor, where.placement)}</blockquote>` : ''}`;
}

/** Past this, an anchor is shown by the end that touches the insertion (a whole wall of text hides the place). */
const ANCHOR_SHOWN = 240;

/**
 * The anchor as the editor looks for it: whole when short; else, for "after", its last words (the
 * text ends there, then the addition), for "before", its first words; cut at a word, marked "…".
 */
export const anchorText = (anchor: string, placement: string): string => {
  const text = passageText(anchor).replace(/\s+/g, ' ').trim();
  if (text.length <= ANCHOR_SHOWN) return text;
  if (placement !== 'after') return cutAtWord(text, ANCHOR_SHOWN);
  const tail = text.slice(-ANCHOR_SHOWN - 1);
  return `…${tail.slice(tail.search(/\s/u) + 1)}`;
};

/**
 * An author task (authorDataOnly) is a request, not a change: where (the sentence or the anchor,
 * quoted), what to write and why. Its AFTER equals its BEFORE when the task is on a sentence, and
 * showing the two side by side read as a change that changes nothing.
 */
function taskBlock(rec: Recommendation, L: Labels): Safe {
  const heading = rec.insertAt && rec.after ? rec.after : '';
  return html`<div class="before-after task">
    <div class="before">
      <p class="tag">${L.where}</p>
      ${
        rec.before
          ? html`<p class="empty">${L.whereSentence}</p>
              <blockquote>${passageText(rec.before)}</blockquote>`
          : beforeBlock(rec, L)
      }
    </div>
    <div class="after">
      <p class="tag">${L.taskForAuthor}</p>
      <p>${clientText(rec.task ?? rec.title)}</p>
      ${
        heading
          ? html`<p class="empty">${L.taskHeading}</p>
              <blockquote>${passageText(heading)}</blockquote>`
          : ''
      }
    </div>
  </div>`;
}

/**
 * Why the engine recommends it: the rule and its figure (issue 23: every recommendation names its
 * evidence). The rule opens with the dimension's id for integrators ("bluf: …"); the card already
 * names the dimension for a reader, so the id is not repeated as jargon.
 */
function whyLine(rec: Recommendation, L: Labels): Safe | '' {
  const e = rec.evidence;
  if (!e?.rule) return '';
  const rule = e.rule.startsWith(`${rec.dimension}: `) ? e.rule.slice(rec.dimension.length + 2) : e.rule;
  return html`<p class="why">
    <strong>${L.why}:</strong> ${clientText(rule)}${e.figure ? ` (${clientText(e.figure)})` : ''}
  </p>`;
}

function recommendationsSection(r: AuditResultV1, L: Labels, f: F, lang: ShareLang): Safe {
  if (!r.recommendations.length)
    return html`<section class="card" aria-labelledby="h-rec">
      <h2 id="h-rec">${L.recommendations}</h2>
      <p>${r.dimensions.some((d) => d.problems.length) ? L.recommendationsNoneButProblems : L.recommendationsNone}</p>
    </section>`;
  return html`<section class="card long" aria-labelledby="h-rec">
    <h2 id="h-rec">${L.recommendations}</h2>
    ${PRIORITIES.map((p) => {
      const recs = r.recommendations.filter((x) => x.priority === p);
      if (!recs.length) return '';
      return html`<h3 class="priority priority-${p}">${L.priority[p]} <span class="count">${recs.length}</span></h3>
        ${recs.map(
          (rec) =>
            html`<article class="rec rec-${p}" id="${anchorOf(rec.id)}">
              <header>
                <h4>${clientText(rec.title)} <span class="rec-id">${rec.id}</span></h4>
                <p class="rec-meta">
                  <span>${dimensionName(rec.dimension, lang)}</span
                  >${rec.section ? html` · <span>${L.section}: ${rec.section}</span>` : ''} ·
                  <span class="delta">${L.delta}: ${f.delta(rec.estimatedCqsDelta)}</span>
                </p>
              </header>
              ${
                rec.authorDataOnly
                  ? taskBlock(rec, L)
                  : html`<div class="before-after">
                      <div class="before">
                        <p class="tag">${L.before}</p>
                        ${beforeBlock(rec, L)}
                      </div>
                      <div class="after">
                        <p class="tag">${L.after}</p>
                        ${rec.after ? html`<blockquote>${passageText(rec.after)}</blockquote>` : html`<p class="empty">${L.removed}</p>`}
                      </div>
                    </div>`
              }
              <p class="impact"><strong>${L.impact}:</strong> ${clientText(rec.impact)}</p>
              ${whyLine(rec, L)}
              ${rec.competitorUrls.length ? html`<p class="muted">${L.competitorsDoing}: ${rec.competitorUrls.map((c, i) => html`${i ? ', ' : ''}${link(c.url, c.domain)}`)}</p>` : ''}
            </article>`,
        )}`;
    })}
  </section>`;
}

function benchmarkSection(r: AuditResultV1, L: Labels, f: F): Safe {
  const b = r.benchmark;
  if (!b)
    return html`<section class="card" aria-labelledby="h-serp">
      <h2 id="h-serp">${L.benchmark}</h2>
      <p>${L.benchmarkNone}</p>
    </section>`;
  const top10 = r.summary?.top10AvgCqs ?? null;
  const cqs = r.scores.cqs;
  return html`<section class="card" aria-labelledby="h-serp">
    <h2 id="h-serp">${L.benchmark}</h2>
    <div class="stat-row">
      <div class="stat"><span class="stat-value">${b.keyword}</span><span class="stat-label">${L.keyword}</span></div>
      <div class="stat">
        <span class="stat-value">${f.int(b.searchVolume)}</span><span class="stat-label">${L.searchVolume}</span>
      </div>
      <div class="stat">
        <span class="stat-value">${f.int(b.serpOrganicCount)}</span><span class="stat-label">${L.organicCount}</span>
      </div>
      <div class="stat">
        <span class="stat-value">${top10 === null ? '—' : f.score(top10)}</span
        ><span class="stat-label">${L.top10}</span>
      </div>
    </div>
    <table class="competitors">
      <caption>
        ${L.competitors}
      </caption>
      <thead>
        <tr>
          <th scope="col">${L.domain}</th>
          <th scope="col">${L.cqsShort}</th>
        </tr>
      </thead>
      <tbody>
        <tr class="this-page">
          <th scope="row">${L.thisPage}</th>
          <td>${cqs === null ? '—' : f.int(cqs)}</td>
        </tr>
        ${b.competitors.map((c) => html`<tr${c.excluded ? html` class="excluded"` : ''}><th scope="row">${link(c.url, c.domain)}</th><td>${c.excluded ? html`${L.excludedWhy}${c.reason ? html` <span class="muted">(${clientText(c.reason)})</span>` : ''}` : c.cqs === null ? '—' : f.int(c.cqs)}</td></tr>`)}
      </tbody>
    </table>
    <div class="two-col">
      ${
        b.paa.length
          ? html`<div>
              <h3>${L.paa}</h3>
              <ul>
                ${b.paa.map((q) => html`<li>${q}</li>`)}
              </ul>
            </div>`
          : ''
      }
      ${
        b.related.length
          ? html`<div>
              <h3>${L.related}</h3>
              <ul>
                ${b.related.map((q) => html`<li>${q}</li>`)}
              </ul>
            </div>`
          : ''
      }
    </div>
  </section>`;
}
