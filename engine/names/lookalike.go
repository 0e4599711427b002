package names

// lookAlike maps characters drawn like a Latin letter or digit to that
// letter, lower case. It is taken, by hand, from the Latin targets of
// Unicode's confusables data (UTS #39) for the scripts people most often
// type names in — Cyrillic, Greek, Armenian, Cherokee's Latin-shaped
// letters, the Latin extensions that look like plain letters — and the
// digits and signs that pass for letters. A look-alike of a capital maps
// to that capital's small letter (Cyrillic "І" to "i", like "I"), so that
// names stay equal whatever their case. Anything NFKC already folds
// (full-width forms, mathematical alphanumerics, ligatures) needs no line.
var lookAlike = map[rune]string{
	// Digits and signs.
	'0': "o", '1': "l", '|': "l", 'ı': "i", 'ǀ': "l", '¡': "i",

	// Cyrillic, capital and small.
	'А': "a", 'а': "a", 'В': "b", 'в': "b", 'Е': "e", 'е': "e", 'Ё': "e", 'ё': "e",
	'К': "k", 'к': "k", 'М': "m", 'м': "m", 'Н': "h", 'н': "h", 'О': "o", 'о': "o",
	'Р': "p", 'р': "p", 'С': "c", 'с': "c", 'Т': "t", 'т': "t", 'У': "y", 'у': "y",
	'Х': "x", 'х': "x", 'Ѕ': "s", 'ѕ': "s", 'І': "i", 'і': "i", 'Ї': "i", 'ї': "i",
	'Ј': "j", 'ј': "j", 'Ԁ': "d", 'ԁ': "d", 'Ԛ': "q", 'ԛ': "q", 'Ԝ': "w", 'ԝ': "w",
	'Һ': "h", 'һ': "h", 'Ү': "y", 'ү': "y", 'Ѵ': "v", 'ѵ': "v", 'Ь': "b", 'ь': "b",
	'Ӏ': "i", 'ӏ': "l", 'Ɡ': "g", 'ɡ': "g", 'Ԍ': "g", 'ԍ': "g", 'З': "3", 'з': "3",
	'Ч': "4", 'п': "n", 'г': "r", 'Ꙇ': "i", 'ꙇ': "i",

	// Greek, capital and small.
	'Α': "a", 'α': "a", 'Β': "b", 'β': "b", 'Ε': "e", 'ε': "e", 'Ζ': "z", 'Η': "h",
	'Ι': "i", 'ι': "i", 'Κ': "k", 'κ': "k", 'Μ': "m", 'Ν': "n", 'ν': "v", 'Ο': "o",
	'ο': "o", 'Ρ': "p", 'ρ': "p", 'Τ': "t", 'τ': "t", 'Υ': "y", 'υ': "u", 'Χ': "x",
	'χ': "x", 'ϲ': "c", 'Ϲ': "c", 'ϳ': "j", 'Ϳ': "j", 'ω': "w", 'γ': "y", 'η': "n",
	'σ': "o", 'ς': "c",

	// Armenian.
	'Օ': "o", 'օ': "o", 'ս': "u", 'Ս': "u", 'ց': "g", 'հ': "h", 'ո': "n", 'ք': "p",
	'Լ': "l", 'զ': "q",

	// Cherokee letters shaped like Latin capitals.
	'Ꭺ': "a", 'Ᏼ': "b", 'Ꮯ': "c", 'Ꭰ': "d", 'Ꭼ': "e", 'Ꮐ': "g", 'Ꮋ': "h", 'Ꭻ': "j",
	'Ꮶ': "k", 'Ꮮ': "l", 'Ꮇ': "m", 'Ꮲ': "p", 'Ꮪ': "s", 'Ꭲ': "t", 'Ꮩ': "v", 'Ꮃ': "w",
	'Ꮓ': "z",

	// Latin letters that pass for plain ones.
	'ɑ': "a", 'ɩ': "i", 'ɪ': "i", 'ʟ': "l", 'ɴ': "n", 'ᴏ': "o", 'ᴑ': "o", 'ʀ': "r",
	'ꜱ': "s", 'ᴛ': "t", 'ᴜ': "u", 'ᴠ': "v", 'ᴡ': "w", 'ᴢ': "z", 'ƅ': "b", 'ɗ': "d",
	'ℓ': "l", 'ȷ': "j", 'ĸ': "k", 'ǃ': "!", 'ꓲ': "l", 'ꓳ': "o", 'ꓴ': "u",
}
