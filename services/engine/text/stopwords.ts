import iso from 'stopwords-iso' with { type: 'json' };

/**
 * Stop words. Polish and German come from stopwords-iso (MIT). Its English list also holds content
 * words ("test", "value", "results", "home"), which would hide real topics, so English uses this
 * shorter list of function words written for the project.
 */
const EN = `a about above after again against all am an and any are aren't as at be because been before being below between both but by
can cannot could couldn't did didn't do does doesn't doing don't down during each few for from further had hadn't has hasn't have haven't having
he her here hers herself him himself his how i if in into is isn't it it's its itself just let's me more most my myself no nor not of off on once
only or other ought our ours ourselves out over own same she should shouldn't so some such than that that's the their theirs them themselves then
there there's these they this those through to too under until up very was wasn't we were weren't what when where which while who whom why with
won't would wouldn't you your yours yourself yourselves also will may might must shall can't us via per etc its one two three many much every
each either neither yet still even ever already than though although whether upon within without also get got gets its into onto`;

const sets: Record<string, Set<string>> = {
  en: new Set(EN.split(/\s+/).filter(Boolean)),
  pl: new Set((iso as Record<string, string[]>).pl),
  de: new Set((iso as Record<string, string[]>).de),
};

/** Stop words of a language; unknown languages use the English list plus their stopwords-iso list. */
export const stopwordsFor = (lang: string): Set<string> => {
  const known = sets[lang];
  if (known) return known;
  const other = (iso as Record<string, string[]>)[lang] ?? [];
  const merged = new Set([...(sets.en ?? []), ...other]);
  sets[lang] = merged;
  return merged;
};
