// i18n-zh.js: warren's own words in Chinese (简体中文), key -> text (see
// i18n.js). The object is JSON (double quotes, no trailing comma): the
// site's generator reads this file too.
export default {
  "goals.title": "目标",
  "goals.help": "在下面的控制台里输入命令。每次改动后都会逐条检查目标。",
  "goals.allMet": "所有目标都已达成。",
  "goals.someMet": "已达成 {met} / {n} 个目标。",
  "goals.met": "已达成",
  "goals.notYet": "尚未达成：{found}",
  "goals.cannotCheck": "无法检查这个目标：{error}",
  "goals.showHint": "显示提示",
  "goals.showHintCount": "显示提示（共 {n} 条）",
  "goals.showHintNext": "显示第 {i} 条提示（共 {n} 条）",
  "goals.showSolution": "查看参考答案",
  "goals.hideSolution": "隐藏参考答案"
};
