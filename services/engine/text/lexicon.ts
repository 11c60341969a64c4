/**
 * Word lists for the text features, written for this project (no list is copied from yoastseo,
 * which is GPL). English and Polish are complete; German has the essentials; any other language
 * falls back to English (the summary then says languageSupport: partial).
 */

export interface Lexicon {
  answerVerbs: string[];
  throatClearing: string[];
  pronounOpeners: string[];
  /** Hedges that can be deleted from a sentence without breaking it. */
  removableHedges: string[];
  hedges: string[];
  cliches: string[];
  removableCliches: string[];
  nominalisation: RegExp;
  passiveAux: string[];
  participle: RegExp;
  experience: string[];
  duration: RegExp;
  examples: string[];
  sources: string[];
  disclaimers: string[];
  ymyl: string[];
  conclusionHeadings: string[];
  intent: { informational: string[]; commercial: string[]; transactional: string[]; local: string[]; instructional: string[]; comparison: string[]; question: string[]; locative: string[] };
  verbs: string[];
  /** The marker of an author-data slot in a suggested AFTER; the value features count it as a value. */
  slot: string;
  /** Vague quantities that a value should replace ("lasts long" → "lasts 20 h"). */
  vague: string[];
  /** Ready-made sentences for additions. */
  phrases: { example: string; keywordNote: string; byline: string; keyFacts: [string, string] };
  facets: Record<FacetId, { markers: string[]; heading: string; lead: string }>;
}

export type FacetId = 'definition' | 'types' | 'cost' | 'howto' | 'vs' | 'proscons' | 'mistakes' | 'forWhom';
export const FACET_IDS: FacetId[] = ['definition', 'types', 'cost', 'howto', 'vs', 'proscons', 'mistakes', 'forWhom'];

const en: Lexicon = {
  answerVerbs: ['is', 'are', 'means', 'costs', 'cost', 'takes', 'lasts', 'gives', 'helps', 'works', 'lets', 'requires', 'needs', 'refers', 'uses', 'reduces', 'saves', 'depends', 'was', 'comes', 'starts', 'should', 'brews', 'makes', 'runs', 'has', 'offers', 'lowers', 'raises'],
  throatClearing: ['in this article', 'in this post', 'in this guide', "in today's", 'in today’s', 'nowadays', 'have you ever wondered', 'we will discuss', "let's dive", 'let’s dive', 'welcome to', 'as we all know', 'it is no secret', 'before we begin', 'read on to', 'keep reading', 'many people wonder', 'everyone knows'],
  pronounOpeners: ['it', 'this', 'that', 'these', 'they', 'those', 'he', 'she', 'its', 'their'],
  removableHedges: ['it is believed that ', 'it is said that ', 'some say that ', 'it seems that ', 'generally speaking, ', 'arguably, ', 'probably ', 'perhaps ', 'possibly ', 'basically ', 'in some cases, '],
  hedges: ['it is believed', 'it is said', 'some say', 'is known for', 'are known for', 'arguably', 'probably', 'perhaps', 'possibly', 'might', 'may be', 'it seems', 'generally speaking', 'in some cases', 'basically', 'somewhat', 'kind of', 'sort of'],
  cliches: ['delve', "it's worth noting", 'it’s worth noting', 'it is worth noting', 'fast-paced world', 'game-changer', 'game changer', 'unlock the power', 'a testament to', 'navigate the complexities', 'in the realm of', 'ever-evolving', 'at the end of the day', 'last but not least', 'look no further', 'needless to say', 'in a nutshell', 'take it to the next level'],
  removableCliches: ["it's worth noting that ", 'it’s worth noting that ', 'it is worth noting that ', "in today's fast-paced world, ", 'in today’s fast-paced world, ', 'at the end of the day, ', 'last but not least, ', 'needless to say, ', 'in a nutshell, '],
  nominalisation: /^[a-z]{5,}(tion|ment|ness|ity|ance|ence)s?$/,
  passiveAux: ['is', 'are', 'was', 'were', 'be', 'been', 'being'],
  participle: /^(?:[a-z]{3,}ed|made|done|given|taken|known|seen|shown|written|built|paid|sold|held|kept|found|brought|thought|told|chosen|driven|eaten|grown|spent|sent|left|lost|set|put|cut|read)$/,
  experience: ['i tested', 'we tested', "i've used", 'i’ve used', 'i have used', 'we measured', 'i measured', 'in my experience', 'i tried', 'we tried', 'i spent', 'our test', 'hands-on', 'i used', 'we used', 'i ran', "i've been", 'we compared', 'i compared', 'we found', 'i found', 'our tests', 'my own'],
  duration: /\b(?:for|over|after)\s+(?:\d+|two|three|four|six|several)\s+(?:days?|weeks?|months?|years?|hours?)\b/,
  examples: ['for example', 'for instance', 'e.g.', 'such as', 'example:', 'worked example', 'case study'],
  sources: ['according to', 'source:', 'sources:', 'study', 'research', 'data from', 'published in', 'survey', 'report by'],
  disclaimers: ['not financial advice', 'not medical advice', 'consult a', 'consult your', 'disclaimer', 'for informational purposes'],
  ymyl: ['loan', 'mortgage', 'credit', 'tax', 'health', 'disease', 'medicine', 'drug', 'dose', 'symptom', 'invest', 'insurance', 'pension', 'diet'],
  conclusionHeadings: ['conclusion', 'summary', 'final thoughts', 'wrap-up', 'bottom line', 'verdict', 'in summary'],
  intent: {
    informational: ['how', 'what', 'why', 'when', 'guide', 'tutorial', 'tips', 'ideas', 'meaning', 'definition', 'explained', 'is'],
    commercial: ['best', 'top', 'vs', 'versus', 'review', 'reviews', 'comparison', 'compare', 'ranking', 'alternatives', 'rated'],
    transactional: ['buy', 'price', 'prices', 'cheap', 'deal', 'deals', 'discount', 'order', 'shop', 'sale', 'coupon', 'cost'],
    local: ['near me', 'nearby', 'open now'],
    instructional: ['how to', 'step by step', 'steps', 'tutorial', 'diy', 'instructions'],
    comparison: ['vs', 'versus', 'vs.', 'or', 'compared', 'comparison', 'compare', 'difference between'],
    question: ['what', 'why', 'when', 'who', 'which'],
    locative: ['in', 'near', 'around', 'across'],
  },
  verbs: ['choose', 'make', 'build', 'use', 'install', 'clean', 'start', 'fix', 'write', 'buy', 'cook', 'brew', 'plan', 'learn', 'grow', 'save', 'lose', 'improve', 'repair', 'pick', 'calculate', 'descale', 'train', 'run', 'store', 'prepare', 'get', 'find', 'set'],
  slot: '[fill in:',
  vague: ['long', 'fast', 'quick', 'quickly', 'cheap', 'expensive', 'many', 'much', 'lot', 'lots', 'good', 'great', 'high', 'low', 'large', 'small', 'affordable', 'significant', 'significantly', 'several', 'huge', 'plenty', 'often', 'decent'],
  phrases: {
    example: 'For example, [fill in: a worked example from your own practice, with numbers].',
    keywordNote: 'In short, {k} [fill in: how this part applies to it, with one concrete value].',
    byline: 'By [fill in: author name], [fill in: credentials or role]. Updated [fill in: date].',
    keyFacts: ['Attribute', 'Value'],
  },
  facets: {
    definition: { markers: ['what', 'definition', 'means', 'meaning', 'refers'], heading: 'What is {e}?', lead: '{E} is [fill in: a one-sentence definition with one concrete attribute].' },
    types: { markers: ['types', 'type', 'kinds', 'kind', 'categories', 'variants'], heading: 'Types of {e}', lead: 'The main types of {e} are [fill in: 3–4 types, each with one distinguishing value].' },
    cost: { markers: ['cost', 'costs', 'price', 'prices', 'pricing', 'cheap', 'expensive', 'budget', '$', '€', '£', 'usd'], heading: 'How much does {e} cost?', lead: '{E} costs [fill in: a price range with the currency and what drives it].' },
    howto: { markers: ['how', 'step', 'steps', 'guide'], heading: 'How to choose {e}', lead: 'To choose {e}, [fill in: the 3 deciding criteria, each with a threshold value].' },
    vs: { markers: ['vs', 'versus', 'compared', 'comparison', 'alternative', 'alternatives', 'instead'], heading: '{E} vs alternatives', lead: 'Compared with its alternatives, {e} [fill in: one measurable difference].' },
    proscons: { markers: ['pros', 'cons', 'advantages', 'disadvantages', 'benefits', 'drawbacks', 'downsides'], heading: '{E}: pros and cons', lead: 'The main advantage of {e} is [fill in: a benefit with a number]; the main drawback is [fill in: a limitation].' },
    mistakes: { markers: ['mistakes', 'mistake', 'errors', 'avoid', 'pitfalls', 'wrong'], heading: 'Common {e} mistakes', lead: 'The most common {e} mistake is [fill in: the mistake and what it costs].' },
    forWhom: { markers: ['who', 'whom', 'suitable', 'ideal', 'beginners', 'recommended'], heading: 'Who is {e} for?', lead: '{E} suits [fill in: the reader profile and the deciding criterion].' },
  },
};

const pl: Lexicon = {
  answerVerbs: ['jest', 'są', 'to', 'oznacza', 'kosztuje', 'kosztują', 'trwa', 'wymaga', 'daje', 'pozwala', 'działa', 'polega', 'wynosi', 'wynoszą', 'zależy', 'służy', 'obniża', 'zmniejsza', 'zwiększa', 'pomaga', 'ma', 'mają', 'należy', 'trzeba', 'wystarczy', 'oferuje', 'zapewnia'],
  throatClearing: ['w tym artykule', 'w dzisiejszych czasach', 'w dzisiejszym artykule', 'czy zastanawiałeś się', 'czy zastanawiałaś się', 'czy kiedykolwiek', 'zapraszamy do lektury', 'jak powszechnie wiadomo', 'nie jest tajemnicą', 'w niniejszym', 'przyjrzymy się', 'omówimy', 'wiele osób zastanawia się', 'każdy z nas', 'od zawsze'],
  pronounOpeners: ['to', 'ten', 'ta', 'te', 'jego', 'jej', 'ich', 'on', 'ona', 'oni', 'tego', 'tym', 'tych', 'tamten'],
  removableHedges: ['uważa się, że ', 'wydaje się, że ', 'niektórzy twierdzą, że ', 'prawdopodobnie ', 'być może ', 'generalnie ', 'w zasadzie ', 'w pewnym sensie '],
  hedges: ['uważa się', 'wydaje się', 'prawdopodobnie', 'być może', 'może być', 'raczej', 'w pewnym sensie', 'niektórzy twierdzą', 'generalnie', 'w zasadzie', 'poniekąd', 'jest znany z', 'jest znana z'],
  cliches: ['warto zauważyć', 'warto wspomnieć', 'w dzisiejszych czasach', 'nie da się ukryć', 'kluczowe znaczenie', 'bez wątpienia', 'nie ulega wątpliwości', 'w erze', 'jak wszyscy wiemy', 'na wyciągnięcie ręki', 'przenieść na wyższy poziom', 'ostatni, ale nie mniej ważny', 'nie od dziś wiadomo'],
  removableCliches: ['warto zauważyć, że ', 'warto wspomnieć, że ', 'w dzisiejszych czasach ', 'nie da się ukryć, że ', 'bez wątpienia ', 'nie ulega wątpliwości, że ', 'nie od dziś wiadomo, że '],
  nominalisation: /^[a-ząćęłńóśźż]{4,}(?:anie|enie|aniu|eniu|ania|enia|ość|ości|acja|acji|cja|cji)$/,
  passiveAux: ['został', 'została', 'zostało', 'zostały', 'zostali', 'zostanie', 'zostaną', 'był', 'była', 'było', 'były', 'byli', 'jest', 'są', 'będzie', 'będą'],
  participle: /^[a-ząćęłńóśźż]{3,}(?:any|ana|ane|ani|ony|ona|one|eni|ęty|ęta|ęte|yty|yta|yte|ity|ita|ite)$/,
  experience: ['testowałem', 'testowałam', 'testowaliśmy', 'przetestowałem', 'przetestowałam', 'przetestowaliśmy', 'sprawdziłem', 'sprawdziłam', 'sprawdziliśmy', 'używam', 'używałem', 'używałam', 'używamy', 'w moim przypadku', 'z mojego doświadczenia', 'w naszym teście', 'w naszych testach', 'zmierzyłem', 'zmierzyłam', 'zmierzyliśmy', 'porównaliśmy', 'porównałem', 'mierzyliśmy', 'sam', 'osobiście'],
  duration: /\b(?:przez|po|od)\s+(?:\d+|dwa|trzy|cztery|kilka|pół)\s+(?:dni|dzień|tygodni|tydzień|tygodnie|miesięcy|miesiące|miesiąc|lat|lata|rok|godzin|godziny)\b/,
  examples: ['na przykład', 'np.', 'przykład:', 'przykładowo', 'dla przykładu', 'studium przypadku'],
  sources: ['według', 'źródło:', 'źródła:', 'badanie', 'badania', 'dane gus', 'raport', 'z danych', 'wynika z'],
  disclaimers: ['nie stanowi porady', 'skonsultuj', 'zastrzeżenie', 'nie jest poradą', 'w celach informacyjnych'],
  ymyl: ['kredyt', 'pożyczk', 'podat', 'zdrow', 'chorob', 'lek', 'dawk', 'objaw', 'inwest', 'ubezpiecz', 'emerytur', 'diet'],
  conclusionHeadings: ['podsumowanie', 'zakończenie', 'wnioski', 'na koniec', 'werdykt'],
  intent: {
    informational: ['jak', 'co', 'czym', 'dlaczego', 'kiedy', 'poradnik', 'porady', 'sposoby', 'definicja', 'czy'],
    commercial: ['najlepszy', 'najlepsza', 'najlepsze', 'najlepszych', 'top', 'vs', 'ranking', 'opinie', 'opinia', 'recenzja', 'porównanie', 'test'],
    transactional: ['kup', 'kupić', 'cena', 'ceny', 'cennik', 'tanio', 'tani', 'tanie', 'promocja', 'zamów', 'sklep', 'koszt', 'allegro'],
    local: ['w pobliżu', 'blisko mnie', 'najbliższy'],
    instructional: ['krok po kroku', 'instrukcja', 'samemu', 'samodzielnie'],
    comparison: ['vs', 'czy', 'porównanie', 'różnica', 'różnice'],
    question: ['co', 'czym', 'dlaczego', 'kiedy', 'kto', 'który', 'która', 'które'],
    locative: ['w', 'we', 'koło', 'pod'],
  },
  verbs: ['wybrać', 'zrobić', 'zbudować', 'używać', 'zainstalować', 'wyczyścić', 'zacząć', 'naprawić', 'napisać', 'kupić', 'ugotować', 'zaparzyć', 'zaplanować', 'nauczyć', 'uprawiać', 'oszczędzać', 'schudnąć', 'poprawić', 'obliczyć', 'założyć', 'dbać', 'odkamienić', 'przygotować', 'przechowywać', 'znaleźć', 'biegać', 'sadzić', 'spłacić'],
  slot: '[uzupełnij:',
  vague: ['długo', 'szybko', 'tani', 'tania', 'tanie', 'drogi', 'droga', 'drogie', 'dużo', 'wiele', 'mało', 'dobry', 'dobra', 'dobre', 'wysoki', 'wysoka', 'wysokie', 'niski', 'niska', 'niskie', 'duży', 'duża', 'duże', 'mały', 'mała', 'małe', 'znacznie', 'sporo', 'niedrogi', 'przystępny', 'przystępna', 'często', 'kilka', 'ogromny'],
  phrases: {
    example: 'Na przykład [uzupełnij: przykład z własnej praktyki, z liczbami].',
    keywordNote: 'W skrócie: {k} – [uzupełnij: jak ta część odnosi się do tematu, z jedną konkretną wartością].',
    byline: 'Autor: [uzupełnij: imię i nazwisko], [uzupełnij: kwalifikacje lub rola]. Aktualizacja: [uzupełnij: data].',
    keyFacts: ['Cecha', 'Wartość'],
  },
  facets: {
    definition: { markers: ['co', 'czym', 'definicja', 'oznacza', 'polega'], heading: 'Co to jest {e}?', lead: '{E} to [uzupełnij: definicja w jednym zdaniu z jedną konkretną cechą].' },
    types: { markers: ['rodzaje', 'rodzaj', 'typy', 'typ', 'odmiany', 'rodzajów'], heading: 'Rodzaje – {e}', lead: 'Najważniejsze rodzaje to [uzupełnij: 3–4 rodzaje, każdy z jedną wyróżniającą wartością].' },
    cost: { markers: ['koszt', 'koszty', 'cena', 'ceny', 'kosztuje', 'kosztują', 'zł', 'złotych', 'cennik', 'budżet', 'tanio', 'drogo'], heading: 'Ile kosztuje {e}?', lead: 'Koszt to [uzupełnij: przedział cen w zł i co na niego wpływa].' },
    howto: { markers: ['jak', 'krok', 'kroki', 'kroków', 'sposób', 'instrukcja'], heading: 'Jak wybrać – {e}', lead: 'Przy wyborze liczą się [uzupełnij: 3 kryteria, każde z wartością progową].' },
    vs: { markers: ['vs', 'czy', 'porównanie', 'alternatywa', 'alternatywy', 'zamiast', 'lepszy', 'lepsza', 'lepsze'], heading: '{E} czy alternatywy?', lead: 'W porównaniu z alternatywami [uzupełnij: jedna mierzalna różnica].' },
    proscons: { markers: ['zalety', 'wady', 'plusy', 'minusy', 'korzyści', 'ograniczenia'], heading: '{E}: zalety i wady', lead: 'Największa zaleta to [uzupełnij: korzyść z liczbą]; największa wada to [uzupełnij: ograniczenie].' },
    mistakes: { markers: ['błędy', 'błąd', 'błędów', 'unikać', 'uniknąć', 'pułapki'], heading: 'Najczęstsze błędy – {e}', lead: 'Najczęstszy błąd to [uzupełnij: błąd i jego koszt].' },
    forWhom: { markers: ['kogo', 'komu', 'dla kogo', 'początkujących', 'polecamy', 'sprawdzi'], heading: 'Dla kogo – {e}?', lead: 'To rozwiązanie sprawdzi się dla [uzupełnij: profil czytelnika i kryterium decydujące].' },
  },
};

const de: Lexicon = {
  ...en,
  answerVerbs: ['ist', 'sind', 'bedeutet', 'kostet', 'kosten', 'dauert', 'braucht', 'hilft', 'heißt', 'funktioniert', 'benötigt', 'liegt', 'beträgt', 'senkt', 'spart'],
  throatClearing: ['in diesem artikel', 'heutzutage', 'haben sie sich schon einmal gefragt', 'in diesem beitrag', 'wie wir alle wissen', 'viele menschen fragen sich'],
  pronounOpeners: ['es', 'dies', 'das', 'diese', 'dieser', 'er', 'sie'],
  removableHedges: ['vielleicht ', 'wahrscheinlich ', 'möglicherweise ', 'eigentlich '],
  hedges: ['vielleicht', 'wahrscheinlich', 'möglicherweise', 'man sagt', 'eigentlich', 'gewissermaßen'],
  cliches: ['es ist erwähnenswert', 'heutzutage', 'nicht zuletzt', 'in der heutigen zeit', 'auf ein neues level'],
  removableCliches: ['es ist erwähnenswert, dass ', 'in der heutigen zeit '],
  nominalisation: /^[a-zäöüß]{4,}(?:ung|ungen|heit|keit|tion|tionen)$/,
  passiveAux: ['wird', 'werden', 'wurde', 'wurden', 'worden'],
  participle: /^ge[a-zäöüß]{3,}(?:t|en)$/,
  experience: ['ich habe getestet', 'wir haben getestet', 'meiner erfahrung', 'wir haben gemessen', 'ich nutze', 'in unserem test', 'ich habe', 'wir haben'],
  duration: /\b(?:seit|über|nach)\s+\d+\s+(?:tagen|wochen|monaten|jahren|stunden)\b/,
  examples: ['zum beispiel', 'z. b.', 'z.b.', 'beispiel:', 'beispielsweise'],
  sources: ['laut', 'quelle:', 'studie', 'bericht', 'daten von'],
  disclaimers: ['keine anlageberatung', 'keine medizinische beratung', 'haftungsausschluss'],
  conclusionHeadings: ['fazit', 'zusammenfassung', 'schluss'],
  intent: {
    informational: ['wie', 'was', 'warum', 'wann', 'anleitung', 'tipps', 'ratgeber'],
    commercial: ['beste', 'bester', 'besten', 'top', 'vs', 'vergleich', 'test', 'testsieger', 'erfahrungen'],
    transactional: ['kaufen', 'preis', 'preise', 'günstig', 'bestellen', 'angebot', 'shop'],
    local: ['in der nähe'],
    instructional: ['anleitung', 'schritt für schritt', 'selber', 'selbst', 'wie man'],
    comparison: ['vs', 'oder', 'vergleich', 'unterschied'],
    question: ['was', 'warum', 'wann', 'wer', 'welche', 'welcher'],
    locative: ['in', 'bei', 'nahe', 'um'],
  },
  vague: ['lange', 'schnell', 'billig', 'teuer', 'viel', 'viele', 'gut', 'hoch', 'niedrig', 'groß', 'klein', 'oft'],
  verbs: ['wählen', 'machen', 'kaufen', 'reinigen', 'entkalken', 'bauen', 'lernen', 'finden', 'zubereiten', 'pflanzen'],
};

const lexicons: Record<string, Lexicon> = { en, pl, de };

export const lexiconFor = (lang: string): Lexicon => lexicons[lang] ?? en;
export const isFullySupported = (lang: string): boolean => lang === 'en' || lang === 'pl';
