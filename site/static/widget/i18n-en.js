// i18n-en.js: warren's own words in English, key -> text (see i18n.js).
// The object is JSON (double quotes, no trailing comma): the site's
// generator reads this file too.
export default {
  "goals.title": "Goals",
  "goals.help": "Type commands in the console below. Each goal is checked after every change.",
  "goals.allMet": "Every goal is met.",
  "goals.someMet.one": "{met} of {n} goal met.",
  "goals.someMet.other": "{met} of {n} goals met.",
  "goals.met": "met",
  "goals.notYet": "not yet: {found}",
  "goals.cannotCheck": "this goal cannot be checked: {error}",
  "goals.showHint": "Show a hint",
  "goals.showHintCount": "Show a hint ({n})",
  "goals.showHintNext": "Show hint {i} of {n}",
  "goals.showSolution": "Show a solution",
  "goals.hideSolution": "Hide the solution"
};
