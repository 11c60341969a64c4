import { plural } from '../labels.ts';
/**
 * Word lists and task texts the recommendation gate uses (issue 23), kept apart from lexicon.ts
 * so the scoring lists and these can change independently. German falls back to English.
 */

export interface RecLexicon {
  /** Sentence openers that lean on the sentence before: such a sentence cannot be moved or open a paragraph. */
  connectives: string[];
  /** A bare answer ("No.", "Nie.") that must stay right after its question. */
  shortAnswer: RegExp;
  /** Question words: too common in PAA questions and headings to show a sub-topic on their own. */
  questionWords: string[];
  /** Units and counted nouns: a vague quantity word right before one stands where a figure belongs ("a lot of kW"). */
  units: RegExp;
  /** A question that asks for an amount ("how tight", "wie viel", "ile"): only a figure answers it. */
  amountQuestion: RegExp;
  /**
   * Words naming what something costs ("cost", "price", „cena”, „kosztuje”, „Preis“): one question
   * of cost put in either word ("Ile kosztuje wizyta?" where the page's section says „Cena …”).
   */
  priceWords: RegExp;
  /**
   * Small numbers written as words ("two to three times"): a figure too; not "a dozen or so"
   * („kilkanaście”), which dodges one.
   */
  numberWords: RegExp;
  /** Attributions to no one ("studies show", "it is believed"): a claim that needs its source named. */
  unsourced: string[];
  /**
   * Determiners after which a noun phrase said again may shrink to its head noun with its form
   * unchanged ("this Stanley Cup review" → "this review"). Empty where the determiner's or the
   * noun's case ending depends on the words dropped (Polish, German): there the edit is not safe.
   */
  backReference: string[];
  /**
   * Wording that dodges a point or states it vaguely ("it depends on driving style", "we won't go
   * into it here", "holds a lot too", "raczej", "je nach"): a passage that says this about a
   * question is where its answer belongs.
   */
  dodges: string[];
  /**
   * Words that tell the reader what to do or avoid ("should", "am besten", "trzeba"): a sentence
   * with one gives advice, so repeating the keyword in it is trimmed, never cut with the sentence.
   */
  advice: string[];
  /** First words of a procedure's next step ("Then", "Danach", "Następnie"): such a sentence is a step. */
  steps: string[];
  task: {
    byline: () => string;
    paa: (q: string, n: number) => string;
    /** The question answered in the passage that already touches it, not in a new section. */
    paaInPlace: (q: string, n: number) => string;
    /** The answer the opening lacks, asked for before the warm-up sentence that stands in its place. */
    answerFirst: (query: string, warmUp: string, shape: AnswerShape) => string;
    /** The same where the opening sentence does not name the subject and no figure comes: no stock phrase to quote. */
    /** `late`: the sentence names the subject, but only after a long lead-up. */
    answerOpening: (query: string, subject: string, shape: AnswerShape, late: boolean) => string;
    facet: (heading: string, n: number) => string;
    facetInPlace: (heading: string, n: number) => string;
    value: (attribute: string, vague: string) => string;
    unit: (phrase: string) => string;
  };
}

/** What the opening answer says, by what the query asks: a thing, a method, a choice, a provider. */
export type AnswerShape = 'define' | 'kinds' | 'method' | 'choice' | 'verdict' | 'difference' | 'provider' | 'direct';

const EN_SHAPE: Record<AnswerShape, string> = {
  define: 'what it is, with one distinguishing figure or property',
  kinds: 'how many kinds there are and their names',
  method: 'how it is done, with the time, tools or number of steps',
  choice: 'which to choose and why, with one figure that decides it',
  verdict: 'your verdict on it: who it suits, what it does best and where it falls short, with one figure',
  difference: 'how they differ, with one figure or property that tells them apart',
  provider: 'who you are, where you work and what it costs',
  direct: 'what a reader who searched this wants to know, said plainly (the thing itself, a number, a date or a name)',
};
const PL_SHAPE: Record<AnswerShape, string> = {
  define: 'czym to jest, z jedną wyróżniającą liczbą lub cechą',
  kinds: 'ile jest rodzajów i jak się nazywają',
  method: 'jak to zrobić, z czasem, narzędziami lub liczbą kroków',
  choice: 'co wybrać i dlaczego, z jedną rozstrzygającą liczbą',
  verdict: 'Twój werdykt: dla kogo jest, co robi najlepiej i gdzie zawodzi, z jedną liczbą',
  difference: 'czym się różnią, z jedną liczbą lub cechą, która je rozróżnia',
  provider: 'kim jesteście, gdzie działacie i ile to kosztuje',
  direct: 'to, czego szuka czytelnik, powiedziane wprost (sama rzecz, liczba, data albo nazwa)',
};
const DE_SHAPE: Record<AnswerShape, string> = {
  define: 'was es ist, mit einer unterscheidenden Zahl oder Eigenschaft',
  kinds: 'wie viele Arten es gibt und wie sie heißen',
  method: 'wie es geht, mit Zeit, Werkzeug oder Zahl der Schritte',
  choice: 'was zu wählen ist und warum, mit einer entscheidenden Zahl',
  verdict: 'Ihr Urteil: für wen es sich eignet, was es am besten kann und wo es schwächelt, mit einer Zahl',
  difference: 'worin sie sich unterscheiden, mit einer Zahl oder Eigenschaft, die sie unterscheidet',
  provider: 'wer Sie sind, wo Sie arbeiten und was es kostet',
  direct: 'das, was der Leser sucht, direkt gesagt (die Sache selbst, eine Zahl, ein Datum oder ein Name)',
};

const en: RecLexicon = {
  advice: ['should', 'best to', 'make sure', 'avoid', 'never', "don't", 'do not'],
  steps: ['then', 'next', 'afterwards', 'finally'],
  connectives: [
    'and',
    'but',
    'so',
    'also',
    'then',
    'however',
    'therefore',
    'thus',
    'still',
    'yet',
    'instead',
    'otherwise',
    'because',
    'which',
    'such',
    'there',
    'here',
    'both',
  ],
  shortAnswer: /^(?:no|yes|nope|yep)\b[\s.,!–-]/iu,
  units:
    /^(?:kw|kwh|mm|cm|km|kg|ml|min|%|\$|€|£|seconds?|minutes?|hours?|days?|weeks?|months?|years?|litres?|liters?|grams?|metres?|meters?|watts?|percent|euros?|dollars?|pounds?)$/u,
  questionWords: ['how', 'what', 'who', 'whom', 'which', 'why', 'when', 'where', 'can', 'does', 'is', 'are', 'do'],
  amountQuestion:
    /^(?:how\s+(?:much|many|long|often|far|tight|loose|high|low|big|large|small|heavy|hot|cold|warm|fast|old|deep|thick|wide|strong|soon|early|late))\b/iu,
  priceWords: /^(?:cost|costs|costing|price|prices|priced|pricing|charge|charges|fee|fees)$/u,
  numberWords:
    /\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|hundred|thousand|dozen|half|twice)\b/iu,
  unsourced: [
    'studies show',
    'studies have shown',
    'research shows',
    'research has shown',
    'experts say',
    'experts agree',
    'experts recommend',
    'scientists say',
    'statistics show',
    'it is believed',
    'it is generally agreed',
    'it is often said',
    'it is sometimes said',
    'it has been suggested',
    'it is said that',
    'many people believe',
    'according to experts',
    'it is known that',
    'data shows',
  ],
  dodges: [
    'depend',
    'depends',
    'depending',
    "can't be given",
    'cannot be given',
    "can't say",
    'cannot say',
    'hard to say',
    'difficult to say',
    'impossible to say',
    "won't go into",
    'will not go into',
    'not go into',
    'beyond the scope',
    'ask a lawyer',
    'ask a professional',
    'ask an expert',
    'consult a',
    'no wrong way',
    'however you want',
    'whatever you like',
    'up to you',
    'a matter of taste',
    'it varies',
    'no single',
    'one number',
    'might',
    'may need',
    'may be',
    'sometimes mentioned',
    'not always clear',
    'a lot too',
    'quite a lot',
    'plenty',
  ],
  backReference: ['the', 'this', 'that', 'these', 'those', 'our', 'your', 'my', 'its', 'their', 'any', 'each', 'every'],
  task: {
    byline: () =>
      `Add a byline under the title: the author's name and one line on their experience with the subject (years of practice, a qualification). The article names no author, so a reader cannot judge who stands behind it.`,
    paa: (q, n) =>
      `Answer "${q}" under this subheading: the answer in the first sentence, then 40–60 words of detail. Searchers ask it (People Also Ask)${n ? ` and ${n} of the top results ${n === 1 ? 'answers' : 'answer'} it` : ''}; the article does not.`,
    paaInPlace: (q, n) =>
      `Answer "${q}" here: this sentence touches the question without answering it. Replace the vague or evasive wording with the specific answer (the figure, the yes or no, the rule), rather than adding a section later that repeats it. Searchers ask it (People Also Ask)${n ? ` and ${n} of the top results ${n === 1 ? 'answers' : 'answer'} it` : ''}.`,
    answerFirst: (q, w, shape) =>
      `Start the article with the answer to "${q}" in one sentence of your own: ${EN_SHAPE[shape]}. This sentence warms up ("${w}") where the answer belongs, and the first 60 words answer nothing: replace it with the answer, or put the answer before it.`,
    answerOpening: (q, e, shape, late) =>
      `Start the article with the answer to "${q}" in one sentence of your own: ${EN_SHAPE[shape]}. ${late ? `This opening sentence gets to "${e}" only after a long lead-up` : `This opening sentence does not name "${e}"`}, and the first 60 words give no figure: replace it with the answer, or put the answer before it.`,
    facet: (h, n) =>
      `Add a short section "${h}" from your own knowledge of the subject: ${n} of the top results ${n === 1 ? 'covers' : 'cover'} this sub-topic and the article does not.`,
    facetInPlace: (h, n) =>
      `Complete this sentence on "${h}" with the specifics from your own knowledge (figures, names, the rule): it touches the sub-topic only in passing, and ${n} of the top results ${n === 1 ? 'covers' : 'cover'} it.`,
    value: (a, v) =>
      `Give the figure for ${a} in this sentence ("${v}" gives no amount); the top results state it, the article only describes it.`,
    unit: (p) =>
      `Put the number in "${p}": the sentence names the unit but not the amount, and only you know the value.`,
  },
};

const pl: RecLexicon = {
  advice: ['należy', 'warto', 'lepiej', 'trzeba', 'unikaj', 'nigdy nie', 'nie wolno'],
  steps: ['następnie', 'potem', 'wtedy', 'na koniec'],
  backReference: [],
  dodges: [
    'zależy',
    'zależności',
    'raczej',
    'chyba',
    'być może',
    'może się',
    'mogą',
    'trudno powiedzieć',
    'trudno jednoznacznie',
    'nie da się',
    'nie można podać',
    'nie będziemy',
    'nie wchodzimy',
    'skonsultuj',
    'zapytaj',
    'w pewien sposób',
    'nie zawsze',
    'bywa',
    'różnie',
    'kwestia gustu',
    'jak kto woli',
    'dowolnie',
    'sporo',
    'całkiem dużo',
  ],
  connectives: [
    'i',
    'a',
    'ale',
    'więc',
    'zatem',
    'także',
    'też',
    'również',
    'jednak',
    'dlatego',
    'dzięki',
    'stąd',
    'wtedy',
    'natomiast',
    'ponieważ',
    'bo',
    'który',
    'która',
    'które',
    'tam',
    'tutaj',
    'oba',
    'obie',
  ],
  shortAnswer: /^(?:nie|tak)\b[\s.,!–-]/iu,
  units:
    /^(?:kw|kwh|mm|cm|km|kg|ml|min|%|zł|€|sekund\p{L}*|minut\p{L}*|godzin\p{L}*|dni|dzień|tygodni\p{L}*|miesi\p{L}*|lat|lata|roku|litr\p{L}*|gram\p{L}*|metr\p{L}*|procent\p{L}*|złotych|euro)$/u,
  questionWords: ['jak', 'co', 'czy', 'kto', 'czym', 'ile', 'kiedy', 'gdzie', 'dlaczego', 'jaki', 'jaka', 'jakie'],
  amountQuestion:
    /(?<![\p{L}])(?:ile|ilu|jak\s+(?:długo|często|daleko|mocno|wysoko|nisko|szybko|głęboko|grub\p{L}*|ciężk\p{L}*|duż\p{L}*|wczesn\p{L}*|późno))(?![\p{L}])/iu,
  priceWords:
    /^(?:cen(?:a|y|ie|ę|ą|om|ach|ami)?|cennik\p{L}{0,3}|koszt\p{L}{0,4}|kosztuj\p{L}{0,3}|kosztowa\p{L}{0,3}|opłat\p{L}{0,3})$/u,
  numberWords:
    /(?<![\p{L}])(?:dwa|dwie|dwóch|trzy|trzech|cztery|czterech|pięć|sześć|siedem|osiem|dziewięć|dziesięć|pół|połow\p{L}*|dwukrotnie|raz\s+na)(?![\p{L}])/iu,
  unsourced: [
    'badania pokazują',
    'badania wykazały',
    'badania dowodzą',
    'eksperci twierdzą',
    'eksperci zalecają',
    'eksperci są zgodni',
    'specjaliści twierdzą',
    'specjaliści zalecają',
    'naukowcy twierdzą',
    'statystyki pokazują',
    'uważa się',
    'mówi się',
    'powszechnie wiadomo',
    'wiele osób uważa',
    'według ekspertów',
    'według specjalistów',
    'według danych',
  ],
  task: {
    byline: () =>
      `Dodaj pod tytułem podpis autora: imię i nazwisko oraz jedno zdanie o jego doświadczeniu w temacie (lata praktyki, kwalifikacje). Artykuł nie podaje autora, więc czytelnik nie wie, kto za nim stoi.`,
    paa: (q, n) =>
      `Odpowiedz pod tym śródtytułem na pytanie „${q}”: odpowiedź w pierwszym zdaniu, potem 40–60 słów szczegółów. Użytkownicy o to pytają (People Also Ask)${n ? `, a ${n} z czołowych wyników na nie ${plural('pl', n, ['', ''], ['odpowiada', 'odpowiadają', 'odpowiada'])}` : ''}; artykuł nie odpowiada.`,
    paaInPlace: (q, n) =>
      `Odpowiedz tutaj na pytanie „${q}”: to zdanie porusza temat, ale na nie nie odpowiada. Zastąp ogólnik lub unik konkretną odpowiedzią (liczba, tak lub nie, zasada), zamiast dopisywać dalej sekcję, która by to powtórzyła. Użytkownicy o to pytają (People Also Ask)${n ? `, a ${n} z czołowych wyników na nie ${plural('pl', n, ['', ''], ['odpowiada', 'odpowiadają', 'odpowiada'])}` : ''}.`,
    answerFirst: (q, w, shape) =>
      `Zacznij artykuł od odpowiedzi na „${q}” w jednym własnym zdaniu: ${PL_SHAPE[shape]}. To zdanie jest wstępem bez treści („${w}”) w miejscu, gdzie powinna stać odpowiedź, a pierwszych 60 słów na nic nie odpowiada: zastąp je odpowiedzią albo postaw odpowiedź przed nim.`,
    answerOpening: (q, e, shape, late) =>
      `Zacznij artykuł od odpowiedzi na „${q}” w jednym własnym zdaniu: ${PL_SHAPE[shape]}. ${late ? `W tym pierwszym zdaniu „${e}” pada dopiero po długim wstępie` : `W tym pierwszym zdaniu nie pada „${e}”`}, a pierwszych 60 słów nie podaje żadnej liczby: zastąp je odpowiedzią albo postaw odpowiedź przed nim.`,
    facet: (h, n) =>
      `Dodaj krótką sekcję „${h}” z własnej wiedzy o temacie: ${n} z czołowych wyników ${plural('pl', n, ['', ''], ['omawia', 'omawiają', 'omawia'])} ten wątek, a artykuł go pomija.`,
    facetInPlace: (h, n) =>
      `Uzupełnij to zdanie o wątku „${h}” konkretami z własnej wiedzy (liczby, nazwy, zasada): artykuł tylko go dotyka, a ${n} z czołowych wyników go ${plural('pl', n, ['', ''], ['omawia', 'omawiają', 'omawia'])}.`,
    value: (a, v) =>
      `Podaj w tym zdaniu wartość dla: ${a} („${v}” nie mówi, ile); czołowe wyniki ją podają, artykuł tylko ją opisuje.`,
    unit: (p) => `Wpisz liczbę w „${p}”: zdanie podaje jednostkę, ale nie wartość, a tę zna tylko autor.`,
  },
};

/** German: its own words and task texts (a German article's author reads them). */
const de: RecLexicon = {
  ...en,
  advice: ['sollte', 'sollten', 'am besten', 'vermeiden', 'achten sie', 'niemals', 'lieber nicht'],
  steps: ['danach', 'dann', 'anschließend', 'zuletzt', 'abschließend'],
  backReference: [],
  dodges: [
    'hängt',
    'abhängig',
    'kommt darauf an',
    'je nach',
    'lässt sich nicht',
    'schwer zu sagen',
    'vielleicht',
    'wahrscheinlich',
    'möglicherweise',
    'nicht die richtige',
    'gehen wir hier nicht',
    'fragen sie',
    'wenden sie sich',
    'geschmackssache',
    'wie man möchte',
    'beliebig',
    'ziemlich viel',
    'jede menge',
  ],
  unsourced: [
    'studien zeigen',
    'studien belegen',
    'experten sagen',
    'experten empfehlen',
    'experten sind sich einig',
    'fachleute sagen',
    'fachleute empfehlen',
    'wissenschaftler sagen',
    'man sagt',
    'es heißt',
    'es wird angenommen',
    'bekanntlich',
    'viele meinen',
    'laut experten',
  ],
  task: {
    byline: () =>
      `Ergänzen Sie unter dem Titel eine Autorenzeile: Name und ein Satz zur Erfahrung mit dem Thema (Jahre der Praxis, Qualifikation). Der Artikel nennt keinen Autor, daher weiß der Leser nicht, wer dahintersteht.`,
    paa: (q, n) =>
      `Beantworten Sie „${q}“ unter dieser Zwischenüberschrift: die Antwort im ersten Satz, dann 40–60 Wörter Details. Nutzer stellen diese Frage (People Also Ask)${n ? ` und ${n === 1 ? 'eines' : n} der Top-Ergebnisse ${n === 1 ? 'beantwortet' : 'beantworten'} sie` : ''}; der Artikel beantwortet sie nicht.`,
    paaInPlace: (q, n) =>
      `Beantworten Sie „${q}“ an dieser Stelle: Dieser Satz berührt die Frage, beantwortet sie aber nicht. Ersetzen Sie die vage oder ausweichende Formulierung durch die konkrete Antwort (die Zahl, ja oder nein, die Regel), statt später einen Abschnitt anzuhängen, der sie wiederholt. Nutzer stellen diese Frage (People Also Ask)${n ? ` und ${n === 1 ? 'eines' : n} der Top-Ergebnisse ${n === 1 ? 'beantwortet' : 'beantworten'} sie` : ''}.`,
    answerFirst: (q, w, shape) =>
      `Beginnen Sie den Artikel mit der Antwort auf „${q}“ in einem eigenen Satz: ${DE_SHAPE[shape]}. Dieser Satz holt aus („${w}“), wo die Antwort hingehört, und die ersten 60 Wörter beantworten nichts: Ersetzen Sie ihn durch die Antwort oder stellen Sie die Antwort davor.`,
    answerOpening: (q, e, shape, late) =>
      `Beginnen Sie den Artikel mit der Antwort auf „${q}“ in einem eigenen Satz: ${DE_SHAPE[shape]}. ${late ? `Dieser erste Satz kommt erst nach langem Anlauf zu „${e}“` : `Dieser erste Satz nennt „${e}“ nicht`}, und die ersten 60 Wörter geben keine Zahl: Ersetzen Sie ihn durch die Antwort oder stellen Sie die Antwort davor.`,
    facet: (h, n) =>
      `Ergänzen Sie einen kurzen Abschnitt „${h}“ aus eigener Sachkenntnis: ${n === 1 ? 'eines' : n} der Top-Ergebnisse ${n === 1 ? 'behandelt' : 'behandeln'} dieses Unterthema, der Artikel tut es nicht.`,
    facetInPlace: (h, n) =>
      `Ergänzen Sie diesen Satz zu „${h}“ um die Einzelheiten aus eigener Sachkenntnis (Zahlen, Namen, die Regel): Der Artikel streift das Unterthema nur, ${n === 1 ? 'eines' : n} der Top-Ergebnisse ${n === 1 ? 'behandelt' : 'behandeln'} es.`,
    value: (a, v) =>
      `Nennen Sie in diesem Satz den Wert für ${a} („${v}“ nennt keine Menge); die Top-Ergebnisse nennen ihn, der Artikel beschreibt ihn nur.`,
    unit: (p) =>
      `Setzen Sie die Zahl in „${p}“ ein: Der Satz nennt die Einheit, aber nicht die Menge, und nur Sie kennen den Wert.`,
  },
  connectives: [
    'und',
    'aber',
    'also',
    'auch',
    'dann',
    'jedoch',
    'deshalb',
    'daher',
    'trotzdem',
    'denn',
    'so',
    'somit',
    'dadurch',
    'damit',
    'dabei',
    'welche',
    'welcher',
    'dort',
    'hier',
  ],
  shortAnswer: /^(?:nein|ja)\b[\s.,!–-]/iu,
  questionWords: ['wie', 'was', 'wer', 'wen', 'welche', 'welcher', 'warum', 'wann', 'wo', 'kann', 'ist', 'sind'],
  amountQuestion:
    /^(?:wie\s+(?:viel|viele|lange|oft|weit|straff|fest|locker|hoch|tief|groß|klein|schwer|heiß|warm|kalt|schnell|alt|dick|breit|stark|früh|spät|bald))\b/iu,
  priceWords: /^(?:preis\p{L}{0,2}|kosten|kostet|kostete|gebühr\p{L}{0,2})$/u,
  numberWords:
    /(?<![\p{L}])(?:zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|zwanzig|dreißig|hundert|tausend|halb\p{L}*|doppelt|zweimal|dreimal)(?![\p{L}])/iu,
  units:
    /^(?:kw|kwh|mm|cm|km|kg|ml|min|%|€|watt|euro|sekunden|minuten|stunden|tage[n]?|wochen|monate[n]?|jahre[n]?|liter|gramm|meter|prozent)$/u,
};

const byLang: Record<string, RecLexicon> = { en, pl, de };

export const recLexiconFor = (lang: string): RecLexicon => byLang[lang] ?? en;
