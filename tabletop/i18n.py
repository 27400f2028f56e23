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

STRINGS.update(
    {
        "combat.empty_side": {
            "ko": "'{field}'에 유닛을 적어 주세요 (예: 3 보병, 1 메크).",
            "en": "List some units for '{field}' (e.g. 3 infantry, 1 mech).",
            "ja": "「{field}」にユニットを書いてください（例: 3 infantry, 1 mech）。",
        },
        "combat.spec_too_long": {
            "ko": "'{field}'가 너무 길어요 ({limit}자 이내).",
            "en": "'{field}' is too long (at most {limit} characters).",
            "ja": "「{field}」が長すぎます（{limit}文字以内）。",
        },
        "combat.bad_item": {
            "ko": "'{item}'을(를) 이해하지 못했어요. '3 보병', '보병 3', '2 custom@6x2 sustain'처럼 적어 주세요.",
            "en": "I could not read '{item}'. Write '3 infantry', 'infantry 3' or '2 custom@6x2 sustain'.",
            "ja": "「{item}」を読み取れませんでした。'3 infantry'、'2 custom@6x2 sustain' のように書いてください。",
        },
        "combat.bad_count": {
            "ko": "'{item}': 유닛 수는 1 이상이어야 해요.",
            "en": "'{item}': the number of units must be 1 or more.",
            "ja": "「{item}」: ユニット数は1以上にしてください。",
        },
        "combat.unknown_unit": {
            "ko": "'{name}' 유닛을 모르겠어요. 혹시: {suggestions}? 새 유닛은 '{name}@6'처럼 전투 값을 붙여 주세요.",
            "en": "'{name}' is not a unit I know. Did you mean: {suggestions}? For an ad hoc unit add its combat value: '{name}@6'.",
            "ja": "「{name}」というユニットは知りません。もしかして: {suggestions}？ 新しいユニットは '{name}@6' のように戦闘値を付けてください。",
        },
        "combat.bad_value": {
            "ko": "'{item}': 전투 값은 1에서 10 사이여야 해요.",
            "en": "'{item}': a combat value is from 1 to 10.",
            "ja": "「{item}」: 戦闘値は1から10です。",
        },
        "combat.bad_dice": {
            "ko": "'{item}': 유닛당 주사위는 1에서 10개까지예요.",
            "en": "'{item}': a unit rolls 1 to 10 dice.",
            "ja": "「{item}」: ユニットあたりのダイスは1から10個です。",
        },
        "combat.too_many_units": {
            "ko": "'{field}'의 유닛이 너무 많아요 (한쪽에 최대 {limit}기).",
            "en": "Too many units in '{field}' (at most {limit} per side).",
            "ja": "「{field}」のユニットが多すぎます（片側最大{limit}）。",
        },
        "combat.too_many_dice": {
            "ko": "'{field}'가 한 번에 굴릴 주사위가 {count}개예요. 최대 {limit}개까지만 굴릴 수 있어요.",
            "en": "'{field}' would roll {count} dice at once; the limit is {limit}.",
            "ja": "「{field}」は一度に{count}個のダイスを振ることになります。上限は{limit}個です。",
        },
        "combat.bad_modifier": {
            "ko": "'{field}' 조정 값은 -{limit}에서 +{limit} 사이여야 해요.",
            "en": "'{field}' must be between -{limit} and +{limit}.",
            "ja": "「{field}」は-{limit}から+{limit}の間にしてください。",
        },
        "combat.no_ground_forces": {
            "ko": "지상 전투에는 양쪽 모두 육군(보병, 메크 등)이 있어야 해요.",
            "en": "Ground combat needs ground forces (infantry, mechs, …) on both sides.",
            "ja": "地上戦には両側に地上部隊（歩兵、メックなど）が必要です。",
        },
        "combat.no_combat_value": {
            "ko": "{unit}에는 전투 값이 없어요. '{unit}@6'처럼 값을 붙여 주세요.",
            "en": "{unit} has no combat value; give one like '{unit}@6'.",
            "ja": "{unit}には戦闘値がありません。'{unit}@6' のように付けてください。",
        },
        "combat.not_ground_force": {
            "ko": "{unit}은(는) 육군이 아니라서 강하할 수 없어요 (71).",
            "en": "{unit} is not a ground force and cannot land (71).",
            "ja": "{unit}は地上部隊ではないため降下できません（71）。",
        },
        "combat.nobody_hits": {
            "ko": "이 조정 값으로는 어느 쪽도 타격을 낼 수 없어서 전투가 끝나지 않아요. 조정 값을 확인해 주세요.",
            "en": "With these modifiers neither side can ever hit, so the battle would never end. Check the modifiers.",
            "ja": "この修正値ではどちらもヒットできず、戦闘が終わりません。修正値を確認してください。",
        },
        "combat.stopped": {
            "ko": "{rounds}라운드가 지나도 끝나지 않아 여기서 멈췄어요.",
            "en": "Stopped after {rounds} rounds without an end.",
            "ja": "{rounds}ラウンド経っても終わらないため停止しました。",
        },
        "combat.no_bombardment": {
            "ko": "폭격 능력을 가진 유닛이 없어요 (예: 노급 전함, 전쟁 태양).",
            "en": "None of these units has Bombardment (e.g. dreadnought, war sun).",
            "ja": "爆撃能力を持つユニットがありません（例: dreadnought, war sun）。",
        },
        "combat.shield_blocks": {
            "ko": "행성 보호막 때문에 폭격할 수 없어요 (86; 전쟁 태양이 있으면 가능, 86.3).",
            "en": "A planetary shield stops the bombardment (86; a war sun ignores it, 86.3).",
            "ja": "惑星シールドにより爆撃できません（86、ウォーサンがいれば可能、86.3）。",
        },
        "combat.shield_blocks_harrow": {
            "ko": "행성 보호막이 내려찍기를 막았어요 (86.2).",
            "en": "A planetary shield stops Harrow (86.2).",
            "ja": "惑星シールドがハロウを防ぎました（86.2）。",
        },
        "combat.structures_destroyed": {
            "ko": "통제권을 얻어 방어자의 건물 {count}개가 파괴됐어요 (75.5).",
            "en": "Control gained: {count} of the defender's structures destroyed (75.5).",
            "ja": "支配権を得たため、防御側の建造物{count}個が破壊されました（75.5）。",
        },
        "combat.title.ground": {"ko": "지상 전투", "en": "Ground combat", "ja": "地上戦"},
        "combat.title.bombard": {"ko": "폭격", "en": "Bombardment", "ja": "爆撃"},
        "combat.title.invade": {"ko": "침공", "en": "Invasion", "ja": "侵攻"},
        "combat.attacker": {"ko": "공격자", "en": "Attacker", "ja": "攻撃側"},
        "combat.defender": {"ko": "방어자", "en": "Defender", "ja": "防御側"},
        "combat.round": {"ko": "{n}라운드", "en": "Round {n}", "ja": "ラウンド{n}"},
        "combat.before": {"ko": "전투 전", "en": "Before combat", "ja": "戦闘前"},
        "combat.kind.combat": {"ko": "전투 주사위", "en": "combat roll", "ja": "戦闘ロール"},
        "combat.kind.bombardment": {"ko": "폭격", "en": "bombardment", "ja": "爆撃"},
        "combat.kind.space_cannon": {"ko": "우주포 방어", "en": "space cannon defence", "ja": "宇宙砲防御"},
        "combat.kind.harrow": {"ko": "내려찍기", "en": "Harrow", "ja": "ハロウ"},
        "combat.kind.valkyrie": {"ko": "발키리 반격", "en": "Valkyrie hit", "ja": "ヴァルキリー反撃"},
        "combat.hits": {"ko": "타격 {n}", "en": "{n} hit(s)", "ja": "ヒット{n}"},
        "combat.sustained": {"ko": "피해 견딤", "en": "sustains", "ja": "ダメージ耐性"},
        "combat.destroyed": {"ko": "파괴", "en": "destroyed", "ja": "破壊"},
        "combat.excess": {"ko": "초과 타격 {n} 소멸", "en": "{n} excess hit(s) lost", "ja": "超過ヒット{n}は消滅"},
        "combat.left": {"ko": "남은 유닛", "en": "Units left", "ja": "残りユニット"},
        "combat.none_left": {"ko": "없음", "en": "none", "ja": "なし"},
        "combat.damaged": {"ko": "피해", "en": "damaged", "ja": "損傷"},
        "combat.result.attacker": {"ko": "공격자 승리", "en": "The attacker wins", "ja": "攻撃側の勝利"},
        "combat.result.defender": {"ko": "방어자 승리", "en": "The defender wins", "ja": "防御側の勝利"},
        "combat.result.draw": {"ko": "무승부: 아무도 남지 않았어요 (70.4)", "en": "Draw: nobody is left (70.4)", "ja": "引き分け: 誰も残っていません（70.4）"},
        "combat.result.none": {"ko": "결과 없음", "en": "No result", "ja": "結果なし"},
        "combat.control.attacker": {"ko": "공격자가 행성 통제권을 얻어요 (75.5).", "en": "The attacker takes control of the planet (75.5).", "ja": "攻撃側が惑星の支配権を得ます（75.5）。"},
        "combat.control.defender": {"ko": "방어자가 행성 통제권을 유지해요 (75.5).", "en": "The defender keeps control of the planet (75.5).", "ja": "防御側が惑星の支配権を維持します（75.5）。"},
        "combat.effects": {"ko": "효과", "en": "Effects", "ja": "効果"},
        "combat.seed": {"ko": "시드 {seed} · 같은 시드면 같은 주사위", "en": "seed {seed} · same seed, same dice", "ja": "シード {seed} ・ 同じシードなら同じダイス"},
        "combat.again": {"ko": "다시 굴리기", "en": "Roll again", "ja": "振り直し"},
        "combat.policy": {
            "ko": "타격 배분: 피해 견딤 먼저, 그다음 가장 싼 유닛부터",
            "en": "Hits: Sustain Damage first, then the cheapest unit first",
            "ja": "ヒット割り当て: ダメージ耐性を先に、次に最も安いユニットから",
        },
        "combat.order": {"ko": "타격 순서: {order}", "en": "Hit order: {order}", "ja": "ヒット順: {order}"},
        "dice.bad_seed": {
            "ko": "시드는 0 이상의 정수여야 해요 (최대 2^63-1).",
            "en": "A seed is a whole number from 0 to 2^63-1.",
            "ja": "シードは0以上の整数です（最大2^63-1）。",
        },
        "dice.bad_expression": {
            "ko": "'{expr}'을(를) 이해하지 못했어요. '5d10>=7', '2d6+1', 'd10'처럼 적어 주세요.",
            "en": "I could not read '{expr}'. Write '5d10>=7', '2d6+1' or 'd10'.",
            "ja": "「{expr}」を読み取れませんでした。'5d10>=7'、'2d6+1'、'd10' のように書いてください。",
        },
        "dice.too_many": {
            "ko": "주사위는 한 번에 1개에서 {limit}개까지 굴릴 수 있어요.",
            "en": "Roll 1 to {limit} dice at a time.",
            "ja": "一度に振れるダイスは1から{limit}個です。",
        },
        "dice.bad_sides": {
            "ko": "주사위 면 수는 2에서 {limit} 사이여야 해요.",
            "en": "A die has 2 to {limit} sides.",
            "ja": "ダイスの面数は2から{limit}です。",
        },
        "dice.title": {"ko": "주사위 {dice}", "en": "Roll {dice}", "ja": "ダイス {dice}"},
        "dice.successes": {"ko": "성공 {n}개 ({target} 이상)", "en": "{n} success(es) (≥ {target})", "ja": "成功{n}個（{target}以上）"},
        "dice.total": {"ko": "합계 {total}", "en": "Total {total}", "ja": "合計 {total}"},
        "dice.unknown_roll": {
            "ko": "그 굴림 기록을 찾을 수 없어요.",
            "en": "That roll is no longer on record.",
            "ja": "その記録は見つかりません。",
        },
    }
)

COMMAND_TEXT.update(
    {
        "cmd.combat": {"en": "combat", "ko": "전투", "ja": "戦闘"},
        "cmd.combat.desc": {"en": "Combat dice for TI4", "ko": "TI4 전투 주사위", "ja": "TI4の戦闘ダイス"},
        "cmd.combat.ground": {"en": "ground", "ko": "지상전", "ja": "地上戦"},
        "cmd.combat.ground.desc": {
            "en": "Ground combat (70) until one side is gone",
            "ko": "한쪽이 사라질 때까지 지상 전투 (70)",
            "ja": "片方が全滅するまで地上戦（70）",
        },
        "cmd.combat.bombard": {"en": "bombard", "ko": "폭격", "ja": "爆撃"},
        "cmd.combat.bombard.desc": {
            "en": "Bombardment (79) of a planet's ground forces",
            "ko": "행성의 육군을 폭격 (79)",
            "ja": "惑星の地上部隊を爆撃（79）",
        },
        "cmd.combat.invade": {"en": "invade", "ko": "침공", "ja": "侵攻"},
        "cmd.combat.invade.desc": {
            "en": "A whole invasion (75): bombard, land, space cannon, combat",
            "ko": "침공 전체 (75): 폭격, 강하, 우주포, 지상 전투",
            "ja": "侵攻全体（75）: 爆撃・降下・宇宙砲・地上戦",
        },
        "cmd.roll": {"en": "roll", "ko": "주사위", "ja": "ダイス"},
        "cmd.roll.desc": {
            "en": "Roll dice: 5d10>=7 counts successes, 2d6+1 sums",
            "ko": "주사위 굴리기: 5d10>=7은 성공 수, 2d6+1은 합계",
            "ja": "ダイス: 5d10>=7 は成功数、2d6+1 は合計",
        },
        "opt.attacker": {"en": "attacker", "ko": "공격자", "ja": "攻撃側"},
        "opt.defender": {"en": "defender", "ko": "방어자", "ja": "防御側"},
        "opt.attacker_mod": {"en": "attacker_mod", "ko": "공격자_조정", "ja": "攻撃側_修正"},
        "opt.defender_mod": {"en": "defender_mod", "ko": "방어자_조정", "ja": "防御側_修正"},
        "opt.attacker_order": {"en": "attacker_order", "ko": "공격자_타격순서", "ja": "攻撃側_ヒット順"},
        "opt.defender_order": {"en": "defender_order", "ko": "방어자_타격순서", "ja": "防御側_ヒット順"},
        "opt.seed": {"en": "seed", "ko": "시드", "ja": "シード"},
        "opt.units": {"en": "units", "ko": "유닛", "ja": "ユニット"},
        "opt.target": {"en": "target", "ko": "대상", "ja": "対象"},
        "opt.shield": {"en": "shield", "ko": "보호막", "ja": "シールド"},
        "opt.ships": {"en": "ships", "ko": "함선", "ja": "艦船"},
        "opt.landing": {"en": "landing", "ko": "강하", "ja": "降下"},
        "opt.pds": {"en": "pds", "ko": "pds", "ja": "pds"},
        "opt.dice": {"en": "dice", "ko": "주사위", "ja": "ダイス"},
        "opt.combat.side.desc": {
            "en": "Units, e.g. 3 infantry, 1 mech (or 보병 3, sardakk)",
            "ko": "유닛, 예: 3 보병, 1 메크 (또는 3 infantry, sardakk)",
            "ja": "ユニット 例: 3 infantry, 1 mech",
        },
        "opt.combat.mod.desc": {
            "en": "Modifier to combat rolls, -10 to +10 (66)",
            "ko": "전투 주사위 조정 값, -10~+10 (66)",
            "ja": "戦闘ロールの修正値 -10〜+10（66）",
        },
        "opt.combat.order.desc": {
            "en": "Units that take hits first, e.g. mech, infantry",
            "ko": "먼저 타격을 받을 유닛, 예: 메크, 보병",
            "ja": "先にヒットを受けるユニット 例: mech, infantry",
        },
        "opt.seed.desc": {
            "en": "Replay: the same seed gives the same dice",
            "ko": "재현: 같은 시드면 같은 주사위",
            "ja": "再現: 同じシードなら同じダイス",
        },
        "opt.combat.units.desc": {
            "en": "Bombarding units, e.g. 2 dreadnought, war sun",
            "ko": "폭격하는 유닛, 예: 2 노급 전함, 전쟁 태양",
            "ja": "爆撃するユニット 例: 2 dreadnought, war sun",
        },
        "opt.combat.target.desc": {
            "en": "The planet's units, e.g. 3 infantry, 1 pds",
            "ko": "행성의 유닛, 예: 3 보병, 1 pds",
            "ja": "惑星のユニット 例: 3 infantry, 1 pds",
        },
        "opt.combat.shield.desc": {
            "en": "The planet has a planetary shield (86)",
            "ko": "행성에 행성 보호막이 있음 (86)",
            "ja": "惑星に惑星シールドがある（86）",
        },
        "opt.combat.ships.desc": {
            "en": "Ships in the system, e.g. 2 dreadnought",
            "ko": "성계의 함선, 예: 2 노급 전함",
            "ja": "星系の艦船 例: 2 dreadnought",
        },
        "opt.combat.landing.desc": {
            "en": "Ground forces that land, e.g. 4 infantry, 1 mech",
            "ko": "강하하는 육군, 예: 4 보병, 1 메크",
            "ja": "降下する地上部隊 例: 4 infantry, 1 mech",
        },
        "opt.combat.defender.desc": {
            "en": "Defending units on the planet, e.g. 2 infantry",
            "ko": "행성의 방어 유닛, 예: 2 보병",
            "ja": "惑星の防御ユニット 例: 2 infantry",
        },
        "opt.combat.pds.desc": {
            "en": "Space cannon units on the planet, e.g. 2 pds",
            "ko": "행성의 우주포 유닛, 예: 2 pds",
            "ja": "惑星の宇宙砲ユニット 例: 2 pds",
        },
        "opt.roll.dice.desc": {"en": "e.g. 5d10>=7, 2d6+1, d10", "ko": "예: 5d10>=7, 2d6+1, d10", "ja": "例: 5d10>=7、2d6+1、d10"},
    }
)

STRINGS.update(
    {
        "agenda.empty_name": {"ko": "정책 이름을 적어 주세요.", "en": "Give the agenda a name.", "ja": "議題の名前を入力してください。"},
        "agenda.name_too_long": {"ko": "정책 이름은 {limit}자 이내로 적어 주세요.", "en": "Keep the agenda name within {limit} characters.", "ja": "議題名は{limit}文字以内にしてください。"},
        "agenda.bad_type": {"ko": "결과 종류는 {types} 중 하나예요.", "en": "The type is one of {types}.", "ja": "種類は {types} のいずれかです。"},
        "agenda.bad_kind": {"ko": "카드 종류는 {kinds} 중 하나예요.", "en": "The card kind is one of {kinds}.", "ja": "カードの種類は {kinds} のいずれかです。"},
        "agenda.no_outcomes": {
            "ko": "결과를 쉼표로 나눠 적어 주세요 (예: 비밀 목표 A, 비밀 목표 B). 플레이어 선출은 players:로 플레이어를 적어도 돼요.",
            "en": "List the outcomes separated by commas. For elect-player you may list players: instead.",
            "ja": "結果をカンマ区切りで書いてください。プレイヤー選出なら players: でも構いません。",
        },
        "agenda.too_many_outcomes": {"ko": "결과가 {count}개예요. 최대 {limit}개까지 가능해요.", "en": "{count} outcomes; at most {limit}.", "ja": "結果が{count}個あります。最大{limit}個です。"},
        "agenda.outcome_too_long": {"ko": "결과 이름은 {limit}자 이내로 적어 주세요.", "en": "Keep each outcome within {limit} characters.", "ja": "結果名は{limit}文字以内にしてください。"},
        "agenda.duplicate_outcome": {"ko": "같은 결과가 두 번 있거나 빈 결과가 있어요.", "en": "An outcome is listed twice or is empty.", "ja": "同じ結果が二度あるか、空の結果があります。"},
        "agenda.too_many_players": {"ko": "플레이어는 최대 {limit}명이에요.", "en": "At most {limit} players.", "ja": "プレイヤーは最大{limit}人です。"},
        "agenda.duplicate_player": {"ko": "같은 플레이어가 두 번 적혀 있어요.", "en": "A player is listed twice.", "ja": "同じプレイヤーが二度書かれています。"},
        "agenda.not_found": {"ko": "진행 중인 정책이 없어요. /agenda start 로 시작하세요.", "en": "No agenda is open here. Start one with /agenda start.", "ja": "進行中の議題がありません。/agenda start で始めてください。"},
        "agenda.closed": {"ko": "'{name}' 정책은 이미 끝났어요. 투표는 바뀌지 않았어요.", "en": "The agenda '{name}' is already closed; nothing was changed.", "ja": "議題「{name}」はすでに終了しています。変更はありません。"},
        "agenda.not_a_player": {"ko": "이 정책은 다음 플레이어만 투표할 수 있어요: {players}", "en": "Only these players vote on this agenda: {players}", "ja": "この議題に投票できるのは次のプレイヤーだけです: {players}"},
        "agenda.unknown_outcome": {"ko": "'{outcome}'은(는) 이 정책의 결과가 아니에요. 가능한 결과: {outcomes}", "en": "'{outcome}' is not an outcome of this agenda. Outcomes: {outcomes}", "ja": "「{outcome}」はこの議題の結果ではありません。結果: {outcomes}"},
        "agenda.bad_votes": {"ko": "표 수는 0에서 {limit} 사이의 정수예요 (0표는 기권, 62.14).", "en": "Votes are a whole number from 0 to {limit} (0 is abstaining, 62.14).", "ja": "票数は0から{limit}の整数です（0は棄権、62.14）。"},
        "agenda.predict_too_late": {"ko": "예측은 첫 투표 전에만 할 수 있어요 (62.22).", "en": "Predictions are only accepted before the first ballot (62.22).", "ja": "予測は最初の投票の前にのみ可能です（62.22）。"},
        "agenda.no_permission": {"ko": "정책을 시작한 사람, 의장({speaker}), 또는 서버 관리자만 닫거나 취소할 수 있어요.", "en": "Only the starter, the speaker ({speaker}) or a server manager can close or cancel it.", "ja": "開始した人、議長（{speaker}）、サーバー管理者のみが終了・取消できます。"},
        "agenda.tie_needs_choice": {"ko": "동점이에요: {outcomes}. 의장({speaker})이 choice:로 하나를 골라 닫아 주세요 (62.19).", "en": "It is a tie: {outcomes}. The speaker ({speaker}) closes it with choice: (62.19).", "ja": "同票です: {outcomes}。議長（{speaker}）が choice: で選んで終了してください（62.19）。"},
        "agenda.only_speaker_breaks_ties": {"ko": "동점은 의장({speaker})만 결정할 수 있어요 (62.19).", "en": "Only the speaker ({speaker}) breaks ties (62.19).", "ja": "同票は議長（{speaker}）のみが決定できます（62.19）。"},
        "agenda.choice_not_tied": {"ko": "의장은 동점인 결과 중에서만 고를 수 있어요: {outcomes}", "en": "The speaker chooses among the tied outcomes only: {outcomes}", "ja": "議長は同票の結果からのみ選べます: {outcomes}"},
        "agenda.title": {"ko": "정책 #{id}: {name}", "en": "Agenda #{id}: {name}", "ja": "議題 #{id}: {name}"},
        "agenda.kind.law": {"ko": "법", "en": "law", "ja": "法"},
        "agenda.kind.directive": {"ko": "명령", "en": "directive", "ja": "命令"},
        "agenda.type.for-against": {"ko": "가결/부결", "en": "For/Against", "ja": "可決/否決"},
        "agenda.type.elect-player": {"ko": "플레이어 선출", "en": "Elect a player", "ja": "プレイヤー選出"},
        "agenda.type.elect-planet": {"ko": "행성 선출", "en": "Elect a planet", "ja": "惑星選出"},
        "agenda.type.elect-other": {"ko": "선출", "en": "Elect", "ja": "選出"},
        "agenda.votes": {"ko": "{n}표", "en": "{n} vote(s)", "ja": "{n}票"},
        "agenda.abstained": {"ko": "기권", "en": "Abstained", "ja": "棄権"},
        "agenda.order": {"ko": "투표 순서", "en": "Voting order", "ja": "投票順"},
        "agenda.speaker": {"ko": "의장", "en": "speaker", "ja": "議長"},
        "agenda.predictions": {"ko": "예측", "en": "Predictions", "ja": "予測"},
        "agenda.reminder.tg": {"ko": "무역품은 투표에 쓸 수 없어요 (62.13). 표는 모두 한 결과에 (62.7).", "en": "Trade goods cannot be used to vote (62.13). All of a player's votes go to one outcome (62.7).", "ja": "交易品は投票に使えません（62.13）。票はすべて一つの結果へ（62.7）。"},
        "agenda.reminder.planet": {"ko": "누군가 통제하고 있는 행성에만 투표할 수 있어요 (62.11).", "en": "Only planets someone controls may be elected (62.11).", "ja": "誰かが支配している惑星にのみ投票できます（62.11）。"},
        "agenda.reminder.self": {"ko": "자기 자신에게 투표해도 돼요 (62.10).", "en": "Players may vote for themselves (62.10).", "ja": "自分自身に投票できます（62.10）。"},
        "agenda.status.open": {"ko": "투표 중", "en": "voting", "ja": "投票中"},
        "agenda.status.closed": {"ko": "종료", "en": "closed", "ja": "終了"},
        "agenda.status.cancelled": {"ko": "취소됨", "en": "cancelled", "ja": "取消"},
        "agenda.result": {"ko": "결과: {winner}", "en": "Result: {winner}", "ja": "結果: {winner}"},
        "agenda.by_speaker": {"ko": "(동점, 의장 결정 62.19)", "en": "(tie, the speaker's choice, 62.19)", "ja": "（同票、議長の決定 62.19）"},
        "agenda.nobody_voted": {"ko": "(아무도 투표하지 않아 의장 결정 62.19)", "en": "(nobody voted: the speaker's choice, 62.19)", "ja": "（投票なし、議長の決定 62.19）"},
        "agenda.card.stays": {"ko": "카드는 게임에 남아요 (62.20).", "en": "The card stays in play (62.20).", "ja": "カードはゲームに残ります（62.20）。"},
        "agenda.card.discarded": {"ko": "카드는 버린 정책 카드 더미로 가요 (62.21, 63.8).", "en": "The card is discarded (62.21, 63.8).", "ja": "カードは捨て札になります（62.21、63.8）。"},
        "agenda.predicted_right": {"ko": "예측 성공: {names}", "en": "Predicted right: {names}", "ja": "予測的中: {names}"},
        "agenda.button.abstain": {"ko": "기권", "en": "Abstain", "ja": "棄権"},
        "agenda.button.predict": {"ko": "결과 예측", "en": "Predict", "ja": "予測"},
        "agenda.button.planet": {"ko": "행성에 투표", "en": "Vote for a planet", "ja": "惑星に投票"},
        "agenda.select": {"ko": "투표할 결과 고르기…", "en": "Choose an outcome…", "ja": "投票する結果を選ぶ…"},
        "agenda.modal.title": {"ko": "{outcome}에 투표", "en": "Vote for {outcome}", "ja": "{outcome}に投票"},
        "agenda.modal.votes": {"ko": "표 수 (소모한 행성의 영향력 합, 0은 기권)", "en": "Votes (influence exhausted; 0 abstains)", "ja": "票数（消耗した影響力の合計、0で棄権）"},
        "agenda.modal.planet": {"ko": "행성 이름", "en": "Planet", "ja": "惑星名"},
        "agenda.modal.predict": {"ko": "예측할 결과", "en": "Outcome you predict", "ja": "予測する結果"},
        "agenda.ack.vote": {"ko": "{voter}: {outcome}에 {votes}표 기록했어요.", "en": "{voter}: {votes} vote(s) for {outcome} recorded.", "ja": "{voter}: {outcome}に{votes}票を記録しました。"},
        "agenda.ack.abstain": {"ko": "{voter}: 기권을 기록했어요.", "en": "{voter}: abstention recorded.", "ja": "{voter}: 棄権を記録しました。"},
        "agenda.ack.predict": {"ko": "{voter}: {outcome} 예측을 기록했어요.", "en": "{voter}: prediction {outcome} recorded.", "ja": "{voter}: 予測「{outcome}」を記録しました。"},
        "agenda.ack.cancel": {"ko": "정책 #{id}를 취소했어요.", "en": "Agenda #{id} cancelled.", "ja": "議題 #{id} を取り消しました。"},
        "agenda.history": {"ko": "이 채널의 정책", "en": "Agendas in this channel", "ja": "このチャンネルの議題"},
        "agenda.history.empty": {"ko": "이 채널에는 아직 정책이 없어요.", "en": "No agendas in this channel yet.", "ja": "このチャンネルにはまだ議題がありません。"},
        "agenda.audit": {"ko": "기록", "en": "Log", "ja": "記録"},
        "agenda.bad_number": {"ko": "표 수는 숫자로 적어 주세요 (0~{limit}).", "en": "Votes must be a number (0-{limit}).", "ja": "票数は数字で入力してください（0〜{limit}）。"},
    }
)

COMMAND_TEXT.update(
    {
        "cmd.agenda": {"en": "agenda", "ko": "정책", "ja": "議題"},
        "cmd.agenda.desc": {"en": "Agenda phase votes (glossary 62-63)", "ko": "정책 단계 투표 (용어 사전 62–63)", "ja": "議題フェイズの投票（62–63）"},
        "cmd.agenda.start": {"en": "start", "ko": "시작", "ja": "開始"},
        "cmd.agenda.start.desc": {"en": "Reveal an agenda and open the vote", "ko": "정책을 공개하고 투표 열기", "ja": "議題を公開して投票を開始"},
        "cmd.agenda.vote": {"en": "vote", "ko": "투표", "ja": "投票"},
        "cmd.agenda.vote.desc": {"en": "Cast or change your votes", "ko": "표 던지기 또는 바꾸기", "ja": "投票する・変更する"},
        "cmd.agenda.abstain": {"en": "abstain", "ko": "기권", "ja": "棄権"},
        "cmd.agenda.abstain.desc": {"en": "Abstain (62.14)", "ko": "기권하기 (62.14)", "ja": "棄権する（62.14）"},
        "cmd.agenda.predict": {"en": "predict", "ko": "예측", "ja": "予測"},
        "cmd.agenda.predict.desc": {"en": "Predict the outcome before the first vote (62.22)", "ko": "첫 투표 전에 결과 예측 (62.22)", "ja": "最初の投票前に結果を予測（62.22）"},
        "cmd.agenda.close": {"en": "close", "ko": "마감", "ja": "締切"},
        "cmd.agenda.close.desc": {"en": "Close the vote and resolve the outcome", "ko": "투표를 마감하고 결과 수행", "ja": "投票を締め切り結果を解決"},
        "cmd.agenda.cancel": {"en": "cancel", "ko": "취소", "ja": "取消"},
        "cmd.agenda.cancel.desc": {"en": "Cancel the open agenda", "ko": "진행 중인 정책 취소", "ja": "進行中の議題を取り消す"},
        "cmd.agenda.show": {"en": "show", "ko": "보기", "ja": "表示"},
        "cmd.agenda.show.desc": {"en": "Show an agenda with its full log", "ko": "정책과 전체 기록 보기", "ja": "議題と全記録を表示"},
        "cmd.agenda.history": {"en": "history", "ko": "기록", "ja": "履歴"},
        "cmd.agenda.history.desc": {"en": "Recent agendas in this channel", "ko": "이 채널의 최근 정책", "ja": "このチャンネルの最近の議題"},
        "opt.name": {"en": "name", "ko": "이름", "ja": "名前"},
        "opt.outcomes": {"en": "outcomes", "ko": "결과들", "ja": "結果一覧"},
        "opt.type": {"en": "type", "ko": "종류", "ja": "種類"},
        "opt.kind": {"en": "kind", "ko": "카드", "ja": "カード"},
        "opt.speaker": {"en": "speaker", "ko": "의장", "ja": "議長"},
        "opt.players": {"en": "players", "ko": "플레이어", "ja": "プレイヤー"},
        "opt.outcome": {"en": "outcome", "ko": "결과", "ja": "結果"},
        "opt.votes": {"en": "votes", "ko": "표", "ja": "票"},
        "opt.choice": {"en": "choice", "ko": "선택", "ja": "選択"},
        "opt.id": {"en": "id", "ko": "번호", "ja": "番号"},
        "opt.agenda.name.desc": {"en": "The agenda card's name", "ko": "정책 카드 이름", "ja": "議題カードの名前"},
        "opt.agenda.outcomes.desc": {"en": "Outcomes, separated by commas (not for For/Against)", "ko": "결과 목록, 쉼표로 구분 (가결/부결은 불필요)", "ja": "結果をカンマ区切りで（可決/否決は不要）"},
        "opt.agenda.type.desc": {"en": "What the agenda elects or decides", "ko": "정책이 선출하거나 결정하는 것", "ja": "議題が選出・決定するもの"},
        "opt.agenda.kind.desc": {"en": "Law or directive: what happens to the card", "ko": "법 또는 명령: 카드의 처리", "ja": "法か命令か: カードの扱い"},
        "opt.agenda.speaker.desc": {"en": "The speaker (breaks ties, votes last)", "ko": "의장 (동점 결정, 마지막 투표)", "ja": "議長（同票を決定、最後に投票）"},
        "opt.agenda.players.desc": {"en": "Players clockwise, e.g. @a @b @c", "ko": "시계방향 플레이어, 예: @a @b @c", "ja": "時計回りのプレイヤー 例: @a @b @c"},
        "opt.agenda.outcome.desc": {"en": "The outcome", "ko": "결과", "ja": "結果"},
        "opt.agenda.votes.desc": {"en": "Influence exhausted plus effects, 0-999 (0 abstains)", "ko": "소모한 영향력과 효과의 합, 0~999 (0은 기권)", "ja": "消耗した影響力と効果の合計 0〜999（0は棄権）"},
        "opt.agenda.choice.desc": {"en": "Speaker only, on a tie: the outcome chosen", "ko": "동점일 때 의장이 고르는 결과", "ja": "同票時に議長が選ぶ結果"},
        "opt.agenda.id.desc": {"en": "Agenda number (default: the open one here)", "ko": "정책 번호 (기본: 이 채널의 진행 중 정책)", "ja": "議題番号（既定: このチャンネルの進行中の議題）"},
        "choice.type.for-against": {"en": "For/Against", "ko": "가결/부결", "ja": "可決/否決"},
        "choice.type.elect-player": {"en": "Elect a player", "ko": "플레이어 선출", "ja": "プレイヤー選出"},
        "choice.type.elect-planet": {"en": "Elect a planet", "ko": "행성 선출", "ja": "惑星選出"},
        "choice.type.elect-other": {"en": "Elect from a list", "ko": "목록에서 선출", "ja": "リストから選出"},
        "choice.kind.law": {"en": "Law", "ko": "법", "ja": "法"},
        "choice.kind.directive": {"en": "Directive", "ko": "명령", "ja": "命令"},
    }
)

STRINGS.update(
    {
        "gt.too_many": {"ko": "한 번에 최대 {limit}개까지 굴릴 수 있어요.", "en": "At most {limit} at a time.", "ja": "一度に最大{limit}個までです。"},
        "gt.bad_incoming": {
            "ko": "'{item}'을(를) 이해하지 못했어요. '큰 앞', '작은 왼쪽', '강한 사격 오른쪽'처럼 적어 주세요.",
            "en": "I could not read '{item}'. Write 'large front', 'small left' or 'heavy shot right'.",
            "ja": "「{item}」を読み取れませんでした。'large front'、'small left'、'heavy shot right' のように書いてください。",
        },
        "gt.meteor.small": {"ko": "작은 유성", "en": "small meteor", "ja": "小さな流星"},
        "gt.meteor.large": {"ko": "큰 유성", "en": "large meteor", "ja": "大きな流星"},
        "gt.shot.light": {"ko": "약한 사격", "en": "light shot", "ja": "弱い射撃"},
        "gt.shot.heavy": {"ko": "강한 사격", "en": "heavy shot", "ja": "強い射撃"},
        "gt.dir.front": {"ko": "앞쪽에서", "en": "from the front", "ja": "前方から"},
        "gt.dir.back": {"ko": "뒤쪽에서", "en": "from behind", "ja": "後方から"},
        "gt.dir.left": {"ko": "왼쪽에서", "en": "from the left", "ja": "左から"},
        "gt.dir.right": {"ko": "오른쪽에서", "en": "from the right", "ja": "右から"},
        "gt.column": {"ko": "{n}번 세로줄", "en": "column {n}", "ja": "{n}列（縦）"},
        "gt.row": {"ko": "{n}번 가로줄", "en": "row {n}", "ja": "{n}行（横）"},
        "gt.meteor.title": {"ko": "유성·사격 주사위", "en": "Meteors and shots", "ja": "流星・射撃ダイス"},
        "gt.meteor.line": {"ko": "{n}. {what} {where}: 🎲 {a} + {b} = {total}", "en": "{n}. {what} {where}: 🎲 {a} + {b} = {total}", "ja": "{n}. {what}（{where}）: 🎲 {a} + {b} = {total}"},
        "gt.sabotage.title": {"ko": "사보타주 주사위", "en": "Sabotage dice", "ja": "サボタージュのダイス"},
        "gt.sabotage.line": {
            "ko": "{n}차: 세로줄 🎲 {c1}+{c2} = **{column}**, 가로줄 🎲 {r1}+{r2} = **{row}**",
            "en": "Attempt {n}: column 🎲 {c1}+{c2} = **{column}**, row 🎲 {r1}+{r2} = **{row}**",
            "ja": "{n}回目: 縦 🎲 {c1}+{c2} = **{column}**、横 🎲 {r1}+{r2} = **{row}**",
        },
        "gt.rules.meteors": {"ko": "유성군 규칙", "en": "Meteor rules", "ja": "流星のルール"},
        "gt.rules.sabotage": {"ko": "사보타주 규칙", "en": "Sabotage rules", "ja": "サボタージュのルール"},
        "chat.other_game": {
            "ko": "이 서버의 기본 게임에는 없어서 {game}에서 찾았어요.",
            "en": "Not in this server's default game; found in {game}.",
            "ja": "既定のゲームになかったため、{game}で見つけました。",
        },
    }
)

COMMAND_TEXT.update(
    {
        "cmd.gt": {"en": "gt", "ko": "갤럭시트러커", "ja": "ギャラクシートラッカー"},
        "cmd.gt.desc": {"en": "Galaxy Trucker dice", "ko": "갤럭시 트러커 주사위", "ja": "ギャラクシートラッカーのダイス"},
        "cmd.gt.meteor": {"en": "meteor", "ko": "유성", "ja": "流星"},
        "cmd.gt.meteor.desc": {"en": "Roll where meteors or shots hit", "ko": "유성·사격이 맞는 줄 굴리기", "ja": "流星・射撃の当たる列を振る"},
        "cmd.gt.sabotage": {"en": "sabotage", "ko": "사보타주", "ja": "サボタージュ"},
        "cmd.gt.sabotage.desc": {"en": "Roll the three sabotage attempts", "ko": "사보타주 좌표 세 번 굴리기", "ja": "サボタージュの座標を3回振る"},
        "opt.incoming": {"en": "incoming", "ko": "날아오는것", "ja": "飛来"},
        "opt.gt.incoming.desc": {
            "en": "As on the card, e.g. large front, small left, heavy shot right",
            "ko": "카드대로, 예: 큰 앞, 작은 왼쪽, 강한 사격 오른쪽",
            "ja": "カード通り 例: large front, small left",
        },
    }
)
