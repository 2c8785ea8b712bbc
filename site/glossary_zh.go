package site

// localTerm is a glossary term in a language: its term and definition
// there, and the language they are in.
type localTerm struct {
	glossaryTerm
	Lang string
	// English is the English word of a translated term, shown after it.
	English string
}

// glossaryIn is the glossary in lang, in the order of terms (the English
// words', which a reader of both knows): for Chinese, each term in its
// Chinese name with the English word after it; a term the Chinese
// glossary lacks stays in English.
func glossaryIn(lang string, terms []glossaryTerm) []localTerm {
	out := make([]localTerm, len(terms))
	for i, g := range terms {
		out[i] = localTerm{glossaryTerm: g, Lang: langEN}
		if lang == langZH {
			if z, ok := glossaryZH[g.ID]; ok {
				out[i].Term, out[i].Def, out[i].Lang = z.Term, z.Def, langZH
				if z.Term != g.Term {
					out[i].English = g.Term
				}
			}
		}
	}
	return out
}

// zhTerm is a glossary entry in Chinese.
type zhTerm struct{ Term, Def string }
