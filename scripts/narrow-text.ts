/**
 * Text that every installed string-width copy measures as one column per UTF-16 unit: printable
 * ASCII, Latin, Greek, Cyrillic, and the punctuation, arrows, mathematical and box-drawing signs
 * sqlboard's help and tables use (–, ≥, κ, →, ×, ·). None of these characters is a control
 * character, a combining mark, an emoji or East Asian wide, and none joins its neighbour into one
 * grapheme. test/narrow-text.test.ts checks every one of them against each copy.
 */
export const NARROW_TEXT =
  /^[\x20-\x7e\xa0-\xa8\xaa-\xac\xaf-\u02ff\u0370-\u0377\u037a-\u037f\u0384-\u038a\u038c\u038e-\u03a1\u03a3-\u0482\u048a-\u052f\u1e00-\u1fff\u2010-\u2027\u2030-\u203b\u203d-\u2048\u2070-\u2071\u2074-\u208e\u2090-\u209c\u20a0-\u20c0\u2190-\u2193\u2200-\u22ff\u2500-\u259f]*$/;
