//! Every string the UI shows, in English and Chinese, in one place.

use crate::lesson::Lang;

pub struct Strings {
    pub app_name: &'static str,
    pub exercise: &'static str,
    pub exercise_card_hint: &'static str,
    pub quiz: &'static str,
    pub contents: &'static str,
    pub help_title: &'static str,
    pub search_prompt: &'static str,
    pub no_match: &'static str,
    pub matches: &'static str,
    pub footer_normal: &'static [(&'static str, &'static str)],
    pub footer_search: &'static [(&'static str, &'static str)],
    pub footer_help: &'static [(&'static str, &'static str)],
    /// (keys, what they do) for the help overlay.
    pub help: &'static [(&'static str, &'static str)],
    pub too_small: &'static str,
    pub first_lesson: &'static str,
    pub last_lesson: &'static str,
}

pub const EN: Strings = Strings {
    app_name: "cudatutor",
    exercise: "Exercise",
    exercise_card_hint: "  (live exercises: editing and running arrive with the exercise view)",
    quiz: "Quiz",
    contents: "Lessons",
    help_title: " Keys ",
    search_prompt: "/",
    no_match: "no match",
    matches: "match",
    footer_normal: &[
        ("q", "quit"),
        ("↑↓", "scroll"),
        ("n/p", "lesson"),
        ("/", "search"),
        ("t", "contents"),
        ("?", "help"),
    ],
    footer_search: &[("Enter", "find"), ("Esc", "cancel")],
    footer_help: &[("Esc", "close help")],
    help: &[
        ("↑ ↓  j k", "scroll one line"),
        ("PgUp PgDn  b space", "scroll one page"),
        ("Ctrl-u Ctrl-d", "scroll half a page"),
        ("g G  Home End", "top / bottom of the lesson"),
        ("{ }", "previous / next section"),
        ("n p  ] [", "next / previous lesson"),
        ("t", "show / hide the lesson list"),
        ("/", "search this lesson"),
        ("n N", "next / previous match (while a search is shown)"),
        ("Esc", "clear the search, close this help"),
        (
            "mouse wheel",
            "scroll; click a lesson in the list to open it",
        ),
        ("?", "this help"),
        ("q  Ctrl-c", "quit (your place is saved)"),
    ],
    too_small: "Terminal too small: enlarge it to at least 20x6",
    first_lesson: "This is the first lesson",
    last_lesson: "This is the last lesson",
};

pub const ZH: Strings = Strings {
    app_name: "cudatutor",
    exercise: "练习",
    exercise_card_hint: "  （交互练习：编辑与运行将在练习视图中提供）",
    quiz: "小测验",
    contents: "课程",
    help_title: " 按键 ",
    search_prompt: "/",
    no_match: "没有匹配",
    matches: "处匹配",
    footer_normal: &[
        ("q", "退出"),
        ("↑↓", "滚动"),
        ("n/p", "课程"),
        ("/", "搜索"),
        ("t", "目录"),
        ("?", "帮助"),
    ],
    footer_search: &[("Enter", "查找"), ("Esc", "取消")],
    footer_help: &[("Esc", "关闭帮助")],
    help: &[
        ("↑ ↓  j k", "滚动一行"),
        ("PgUp PgDn  b space", "滚动一页"),
        ("Ctrl-u Ctrl-d", "滚动半页"),
        ("g G  Home End", "课程开头 / 结尾"),
        ("{ }", "上一节 / 下一节"),
        ("n p  ] [", "下一课 / 上一课"),
        ("t", "显示 / 隐藏课程列表"),
        ("/", "在本课中搜索"),
        ("n N", "下一个 / 上一个匹配（显示搜索结果时）"),
        ("Esc", "清除搜索，关闭帮助"),
        ("鼠标滚轮", "滚动；点击列表中的课程打开它"),
        ("?", "本帮助"),
        ("q  Ctrl-c", "退出（会保存你的位置）"),
    ],
    too_small: "终端太小：请至少放大到 20x6",
    first_lesson: "这已是第一课",
    last_lesson: "这已是最后一课",
};

pub fn for_lang(lang: Lang) -> &'static Strings {
    match lang {
        Lang::En => &EN,
        Lang::Zh => &ZH,
    }
}
