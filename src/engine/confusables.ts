/**
 * The confusable skeleton of a name (Unicode UTS #39, §4 "Confusable Detection"), for the
 * characters that matter to the jail: the look-alikes of the letters, digits and the dot that
 * spell `.slmcode` and `.git`. Two names with the same skeleton look the same to a person, so
 * a directory whose skeleton is `.git` is refused even though no filesystem would treat it as
 * `.git`: a person approving a command, or reading a listing, would.
 *
 * skeleton(x) = each character through CONFUSABLE, compatibility-fold (NFKC: fullwidth and
 * mathematical letters, ․ → .), lower case (the filesystems that matter fold case), then each
 * character through CONFUSABLE again, with the marks on letters dropped (from
 * UTS #39's confusables.txt, the entries whose target is one of . c d e g i l m o s t, plus
 * their digit look-alikes), then the multi-character look-alikes "rn" → "m" and "cl" → "d". Invisible
 * characters (zero-width joiners and spaces, bidi marks) never reach this: the jail refuses
 * every format (Cf) character before.
 */

/** Look-alike → the ASCII character it is confused with. Lower-case sources only: names are lower-cased first. */
const CONFUSABLE: ReadonlyMap<string, string> = new Map(
  Object.entries({
    '.': '\u0660\u06f0\u0701\u0702\ua4f8\ua60e', // Arabic-Indic zeros, Syriac points, Lisu, Vai (NFKC already folds the one dot leader)
    c: '\u0441\u03f2\u1d04\u2ca5\uabaf', // Cyrillic es, Greek lunate sigma, small capital c, Coptic, Cherokee
    d: '\u0501\u13e7\u146f\ua4d2\u1d05', // Cyrillic komi de, Cherokee, Canadian syllabics, Lisu, small capital d
    e: '\u0435\u04bd\u212e\u212f\u2147\uab32\u1d07', // Cyrillic ie, abkhasian che, estimated sign, script e, small capital e
    g: '\u0261\u0581\u1d83\u018d\u210a\u0262', // Latin script g, Armenian co, g with palatal hook, turned delta, script g, small capital g
    i: '\u0456\u0131\u0269\u026a\u03b9\u13a5\uab75', // Cyrillic i, dotless i, Latin iota, small capital i, Greek iota, Cherokee
    l: '\u04cf\u05c0\u05d5\u05df\u0627\u07ca\u16c1\u2c93\u2d4f\u2223\u01c0|1\u029f', // Cyrillic palochka, Hebrew, Arabic alef, NKo, rune, Coptic, Tifinagh, divides, dental click, vertical bar, digit one, small capital l
    m: '\u2c99\u1d0d', // Coptic small mi, small capital m (NFKC already folds the Roman numeral)
    o: '\u043e\u03bf\u03c3\u0585\u05e1\u0ae6\u0b66\u0c66\u0ce6\u0d66\u0e50\u0ed0\u101d\u1040\u10ff\u2c9f\u1d0f\u1d11\uab3d0', // Cyrillic o, Greek omicron and sigma, Armenian, Hebrew samekh, Indic zeros, Thai, Lao, Myanmar, Georgian, Coptic, small capital o, digit zero
    s: '\u0455\ua731\u01bd\u10bd\uabaa\u0282', // Cyrillic dze, small capital s, tone five, Georgian, Cherokee
    t: '\u2ca7\u1d1b\u03c4\u0442', // Coptic tau, small capital t, Greek tau, Cyrillic te
  }).flatMap(([to, froms]) => [...froms].map((from) => [from, to] as const)),
);

/** Capital letters confused with a lower-case letter other than their own (UTS #39: I → l). */
const CAPITAL_AS_L = /[I\u0399\u0406\u04c0]/g; // Latin I, Greek Iota, Cyrillic І, Cyrillic palochka

function mapped(s: string): string {
  let out = '';
  for (const ch of s) out += CONFUSABLE.get(ch) ?? ch;
  return out;
}

/**
 * The confusable skeletons of `name`, as far as the jail needs them: look-alikes are mapped
 * before and after the compatibility fold (NFKC turns the lunate sigma ϲ into ς, which looks
 * like no letter), and a capital I counts both as the i it lower-cases to (`.gIt` is `.git` on a
 * case-folding filesystem) and as the l it looks like (`.sImcode` reads `.slmcode`).
 */
export function skeletons(name: string): readonly string[] {
  // Marks on a letter (ḍ, ė) leave the letter legible as itself: they are dropped.
  const one = (s: string): string =>
    mapped(
      mapped(s)
        .normalize('NFKC')
        .toLowerCase()
        .normalize('NFD')
        .replace(/\p{Mn}/gu, ''),
    )
      .replace(/rn/g, 'm')
      .replace(/cl/g, 'd');
  const folded = one(name);
  const asL = one(name.normalize('NFKC').replace(CAPITAL_AS_L, 'l'));
  return folded === asL ? [folded] : [folded, asL];
}
