"""UI strings in Korean (default), English and Japanese. Rules text is never translated here."""
from __future__ import annotations

LOCALES = ("ko", "en", "ja")


def lang(locale: object | None) -> str:
    """'en-US', 'en-GB', Locale.japanese, None … -> 'ko' | 'en' | 'ja'."""
    value = str(getattr(locale, "value", locale) or "ko").lower()
    return value[:2] if value[:2] in LOCALES else "ko"


STRINGS: dict[str, dict[str, str]] = {
    # rules answers
    "page": {"ko": "{page}/{pages}쪽", "en": "page {page}/{pages}", "ja": "{page}/{pages}ページ"},
    "related": {"ko": "연관 주제", "en": "Related topics", "ja": "関連項目"},
    "related.missing": {"ko": "(이 규칙 묶음에 없음)", "en": "(not in this pack)", "ja": "（このパックにはありません）"},
    "related.select": {"ko": "연관 주제 열기…", "en": "Open a related topic…", "ja": "関連項目を開く…"},
    "editor_note": {"ko": "편집자 주 (원문 아님)", "en": "Editor's note (not source text)", "ja": "編集注（原文ではありません）"},
    "prev": {"ko": "이전", "en": "Previous", "ja": "前へ"},
    "next": {"ko": "다음", "en": "Next", "ja": "次へ"},
    "matched": {"ko": "찾은 규칙: {rule}", "en": "Matched rule: {rule}", "ja": "該当ルール: {rule}"},
    "no_result": {
        "ko": "'{query}'에 맞는 규칙을 찾지 못했어요. 다른 낱말이나 규칙 번호(예: 79.1)로 찾아보세요.",
        "en": "No rule found for '{query}'. Try other words or a rule number (e.g. 79.1).",
        "ja": "「{query}」に合うルールが見つかりませんでした。別の言葉かルール番号（例: 79.1）で探してください。",
    },
    "empty_query": {
        "ko": "찾을 낱말이나 규칙 번호를 입력해 주세요 (예: 폭격, 79.1).",
        "en": "Type a word or a rule number to look up (e.g. bombardment, 79.1).",
        "ja": "調べたい言葉かルール番号を入力してください（例: 爆撃、79.1）。",
    },
    "query_too_long": {
        "ko": "검색어가 너무 길어요 ({length}자). {limit}자 이내로 줄여 주세요.",
        "en": "That query is too long ({length} characters). Keep it within {limit}.",
        "ja": "検索語が長すぎます（{length}文字）。{limit}文字以内にしてください。",
    },
    "unknown_game": {
        "ko": "'{game}' 게임은 없어요. 가능한 게임: {games}",
        "en": "There is no game '{game}'. Available: {games}",
        "ja": "ゲーム「{game}」はありません。利用可能: {games}",
    },
    "did_you_mean": {"ko": "혹시 이것을 찾으셨나요?", "en": "Did you mean…", "ja": "もしかして:"},
    "search.title": {"ko": "'{query}' 검색 결과", "en": "Results for '{query}'", "ja": "「{query}」の検索結果"},
    "search.select": {"ko": "열어 볼 항목 고르기…", "en": "Open a result…", "ja": "開く項目を選ぶ…"},
    "from_game": {"ko": "{game}", "en": "{game}", "ja": "{game}"},
    "not_yours": {
        "ko": "이 버튼은 질문한 사람만 쓸 수 있어요. 직접 /rule 로 찾아보세요.",
        "en": "Only the person who asked can use these buttons. Try /rule yourself.",
        "ja": "このボタンは質問した人だけが使えます。ご自身で /rule を使ってください。",
    },
    "error.unexpected": {
        "ko": "죄송해요, 처리 중 문제가 생겼어요. 오류 번호: {error_id}",
        "en": "Sorry, something went wrong. Error id: {error_id}",
        "ja": "申し訳ありません、問題が発生しました。エラー番号: {error_id}",
    },
    "error.unknown_command": {
        "ko": "알 수 없는 명령이에요: {command}. /help 로 명령 목록을 볼 수 있어요.",
        "en": "Unknown command: {command}. /help lists the commands.",
        "ja": "不明なコマンドです: {command}。/help でコマンド一覧を表示します。",
    },
    "error.option": {
        "ko": "'{option}' 값이 올바르지 않아요: {problem}",
        "en": "Option '{option}' is not valid: {problem}",
        "ja": "オプション「{option}」が正しくありません: {problem}",
    },
    "error.missing_option": {
        "ko": "'{option}' 값을 입력해 주세요.",
        "en": "Please give '{option}'.",
        "ja": "「{option}」を入力してください。",
    },
    "error.unknown_option": {
        "ko": "'{command}' 명령에는 '{option}' 옵션이 없어요. 가능한 옵션: {options}",
        "en": "'{command}' has no option '{option}'. Options: {options}",
        "ja": "「{command}」にオプション「{option}」はありません。オプション: {options}",
    },
    "error.rate_limited": {
        "ko": "조금 천천히요! {seconds}초 뒤에 다시 물어봐 주세요.",
        "en": "Slow down a little! Ask again in {seconds} s.",
        "ja": "少しゆっくり！ {seconds}秒後にもう一度どうぞ。",
    },
    "error.no_permission": {
        "ko": "이 작업은 서버 관리 권한이 있는 사람만 할 수 있어요.",
        "en": "Only members with Manage Server can do this.",
        "ja": "この操作はサーバー管理権限を持つメンバーのみ可能です。",
    },
    "error.guild_only": {
        "ko": "이 명령은 서버 안에서만 쓸 수 있어요.",
        "en": "This command works only inside a server.",
        "ja": "このコマンドはサーバー内でのみ使えます。",
    },
    "settings.chat": {
        "ko": "채팅 모드(?질문)를 {state} 했어요.",
        "en": "Chat mode (?question) is now {state}.",
        "ja": "チャットモード（?質問）を{state}にしました。",
    },
    "settings.on": {"ko": "켜기로", "en": "on", "ja": "オン"},
    "settings.off": {"ko": "끄기로", "en": "off", "ja": "オフ"},
    "settings.game": {
        "ko": "이 서버의 기본 게임을 {game}(으)로 정했어요.",
        "en": "This server's default game is now {game}.",
        "ja": "このサーバーの既定のゲームを{game}にしました。",
    },
    "settings.show": {
        "ko": "채팅 모드: {chat} · 기본 게임: {game}",
        "en": "Chat mode: {chat} · default game: {game}",
        "ja": "チャットモード: {chat} ・ 既定のゲーム: {game}",
    },
    "console.welcome": {
        "ko": "오프라인 콘솔입니다. /help 로 명령 목록을, /quit 로 종료합니다.",
        "en": "Offline console. /help lists commands, /quit exits.",
        "ja": "オフラインコンソールです。/help でコマンド一覧、/quit で終了します。",
    },
    "console.game": {
        "ko": "이제 {game} 규칙을 찾습니다.",
        "en": "Now looking up {game} rules.",
        "ja": "{game} のルールを調べます。",
    },
}


def t(key: str, locale: object | None = "ko", **values) -> str:
    entry = STRINGS[key]
    text = entry.get(lang(locale)) or entry["ko"]
    return text.format(**values) if values else text


# Application-command names and descriptions, by key: "cmd.<command>" (name), "cmd.<command>.desc",
# "opt.<option>" (option name), "opt.<command>.<option>.desc". English is the canonical name.
COMMAND_TEXT: dict[str, dict[str, str]] = {
    "cmd.rule": {"en": "rule", "ko": "규칙", "ja": "ルール"},
    "cmd.rule.desc": {
        "en": "Look up a rule by word, question or number (79.1)",
        "ko": "낱말, 질문 또는 번호(79.1)로 규칙 찾기",
        "ja": "言葉・質問・番号（79.1）でルールを調べる",
    },
    "cmd.search": {"en": "search", "ko": "검색", "ja": "検索"},
    "cmd.search.desc": {
        "en": "List the five best matching rules",
        "ko": "가장 잘 맞는 규칙 다섯 개 보기",
        "ja": "よく合うルールを5件表示",
    },
    "cmd.settings": {"en": "settings", "ko": "설정", "ja": "設定"},
    "cmd.settings.desc": {
        "en": "Server settings: chat mode and default game (Manage Server)",
        "ko": "서버 설정: 채팅 모드와 기본 게임 (서버 관리 권한)",
        "ja": "サーバー設定: チャットモードと既定のゲーム（サーバー管理）",
    },
    "opt.query": {"en": "query", "ko": "검색어", "ja": "検索語"},
    "opt.rule.query.desc": {
        "en": "A word, a question or a rule number",
        "ko": "낱말, 질문 또는 규칙 번호",
        "ja": "言葉・質問・ルール番号",
    },
    "opt.search.query.desc": {"en": "What to look for", "ko": "찾을 내용", "ja": "探す内容"},
    "opt.game": {"en": "game", "ko": "게임", "ja": "ゲーム"},
    "opt.rule.game.desc": {"en": "Which game's rules", "ko": "어느 게임의 규칙", "ja": "どのゲームのルール"},
    "opt.search.game.desc": {"en": "Which game's rules", "ko": "어느 게임의 규칙", "ja": "どのゲームのルール"},
    "opt.settings.game.desc": {
        "en": "Default game for this server",
        "ko": "이 서버의 기본 게임",
        "ja": "このサーバーの既定のゲーム",
    },
    "opt.private": {"en": "private", "ko": "비공개", "ja": "非公開"},
    "opt.rule.private.desc": {
        "en": "Only you see the answer",
        "ko": "나에게만 답 보이기",
        "ja": "自分だけに表示",
    },
    "opt.search.private.desc": {
        "en": "Only you see the results",
        "ko": "나에게만 결과 보이기",
        "ja": "自分だけに表示",
    },
    "opt.chat": {"en": "chat", "ko": "채팅", "ja": "チャット"},
    "opt.settings.chat.desc": {
        "en": "Answer ?questions and mentions in chat",
        "ko": "채팅의 ?질문과 멘션에 답하기",
        "ja": "チャットの?質問とメンションに答える",
    },
}

# Discord locales we localise into, and the language each maps to.
DISCORD_LOCALES = {"ko": "ko", "ja": "ja", "en-US": "en", "en-GB": "en"}


def command_text(key: str, language: str) -> str | None:
    entry = COMMAND_TEXT.get(key)
    return entry.get(language) if entry else None
