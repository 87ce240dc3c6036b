"""The console's words in Chinese (the default: referees at Chinese events) and English.

Offence and penalty names come from ``referee_station.table.offences`` so the console, the
replay timeline and the record sheet always say the same thing.
"""

from __future__ import annotations

from referee_station.table.offences import OFFENCES, PENALTY_NAMES

LANGUAGES = ("zh", "en")

STRINGS: dict[str, tuple[str, str]] = {
    # tile states, least to most severe
    "normal": ("正常", "normal"),
    "countdown": ("读秒", "countdown"),
    "warning": ("警告", "warning"),
    "infraction": ("违例", "infraction"),
    "foul": ("犯规", "foul"),
    "offline": ("离线", "offline"),
    # seats and sides
    "E": ("东", "E"),
    "S": ("南", "S"),
    "W": ("西", "W"),
    "N": ("北", "N"),
    "EW": ("东西", "EW"),
    "NS": ("南北", "NS"),
    # actions
    "play": ("出牌", "play"),
    "pass": ("不要", "pass"),
    "report": ("报牌", "report"),
    "tribute": ("进贡", "tribute"),
    "return": ("还贡", "return"),
    "lead": ("首攻", "lead"),
    "follow": ("跟牌", "follow"),
    "grace": ("读秒", "grace"),
    # window and panels
    "title": ("掼蛋裁判台", "Guandan referee station"),
    "hall": ("赛场", "Hall"),
    "table": ("牌桌", "Table"),
    "alerts": ("待裁决", "Alerts"),
    "register": ("判罚记录", "Penalty register"),
    "rulings": ("已裁决", "Rulings"),
    "feeds_ended": (
        "所有牌桌的比赛已结束，仍可裁决和导出",
        "every table's match is over; rulings and exports still work",
    ),
    "audit": ("裁决审计", "Audit trail"),
    "ladder": ("罚则阶梯", "Ladder"),
    "manual": ("手动录入", "Manual entry"),
    "sheet": ("比赛记录表", "Record sheet"),
    "confirm": ("确认 (Enter)", "Confirm (Enter)"),
    "dismiss": ("驳回 (Del)", "Dismiss (Del)"),
    "next": ("下一条 (N)", "Next (N)"),
    "stop_next": ("下家选择停其下一次出牌", "the next seat stops the violator's next play"),
    # a ruling's preview (console/models/preview.py)
    "decide_confirm": ("确认", "confirm"),
    "decide_dismiss": ("驳回", "dismiss"),
    "preview": ("裁决后果", "if ruled"),
    "preview_none": ("不判罚", "no penalty"),
    "preview_recorded": ("记入罚则阶梯，比赛继续", "recorded, play goes on"),
    "preview_stop_next": ("下家可停其下一次出牌", "the next seat may stop the violator's next play"),
    "preview_deal_ends": ("本副结束, {side} +{up}", "deal ends, {side} +{up}"),
    "preview_match_ends": ("比赛结束, {side} 胜", "match ends, {side} wins"),
    "flag_cards": ("涉及的牌", "cards"),
    "flag_time": ("牌桌时间 {t:.1f} 秒 · 已等 {age:.0f} 秒", "table time {t:.1f} s · waiting {age:.0f} s"),
    "age_s": ("{age:.0f} 秒", "{age:.0f} s"),
    "last_ruling": ("刚才的裁决", "last ruling"),
    "evidence": ("证据原图", "evidence, full size"),
    "evidence_button": ("放大 (Space)", "Enlarge (Space)"),
    "filter": ("筛选", "Filter"),
    "all": ("全部", "all"),
    "deal": ("第{n}副", "deal {n}"),
    "level": ("级", "level"),
    "to_act": ("该出", "to act"),
    "cards_left": ("余牌", "left"),
    "last_play": ("最后出牌", "last play"),
    "reported": ("已报", "reported"),
    "place": ("名次", "place"),
    "places": ("上游,二游,三游,下游", "1st,2nd,3rd,4th"),
    "health": ("设备", "devices"),
    "camera": ("摄像头", "camera"),
    "timer": ("计时器", "timer"),
    "seats": ("座位器", "seat units"),
    "age": ("最近事件", "last event"),
    "score": ("比分", "score"),
    "history": ("本副出牌", "tricks of the deal"),
    # match setup (station console)
    "setup_title": ("比赛设置", "Match setup"),
    "side_name": ("{side} 队名", "{side} name"),
    "length_deals": ("副数（0 = 不限）", "deals (0 = no limit)"),
    "length_minutes": ("时长，分钟（0 = 不限）", "minutes (0 = no limit)"),
    "variants": ("规则选项", "rule variants"),
    "start_level": ("{side} 起始级", "{side} starting level"),
    "first_leader": ("第一副首攻（翻牌所得）", "first deal's first leader (card turned)"),
    "start_match": ("开始比赛", "Start match"),
    "cancel": ("取消", "Cancel"),
    "setup_needs_names": ("请填写两队队名", "name both sides"),
    "station_error": ("无法启动牌桌", "the table cannot start"),
    "export_csv": ("导出 CSV", "Export CSV"),
    "export_pdf": ("导出 PDF", "Export PDF"),
    "language": ("English", "中文"),
    "submit": ("录入", "Enter"),
    "who": ("裁判", "by"),
    "when": ("时间", "when"),
    "what": ("内容", "what"),
    "changed": ("变化", "change"),
    "side": ("方", "side"),
    "penalty": ("判罚", "penalty"),
    "reason": ("原因", "reason"),
    "rule": ("条款", "rule"),
    "seat": ("座位", "seat"),
    "order": ("名次", "order"),
    "up": ("升级", "up"),
    "levels": ("级数", "levels"),
    "result": ("结果", "result"),
    "winner": ("胜方", "winner"),
    "points": ("得分", "points"),
    "sheet_deal": ("副", "deal"),
    "trick": ("轮", "trick"),
    "ruled_confirm": ("确认", "confirmed"),
    "ruled_dismiss": ("驳回", "dismissed"),
    "stopped": ("停下一次出牌", "next play stopped"),
    "card_or_count": ("牌或张数，如 3s 3h 或 5", "cards or count, e.g. 3s 3h or 5"),
    "typed": ("或直接输入，如 “东 3s 3h”、“南 不要”、“西 报 5”", "or type, e.g. 'E 3s 3h', 'S pass', 'W report 5'"),
    "sheet_time": ("时间 (秒)", "time (s)"),
    # the head referee's console (hall console)
    "head_title": ("掼蛋总裁判台", "Guandan head referee's console"),
    "login": ("登录 (Ctrl+L)", "Log in (Ctrl+L)"),
    "logout": ("退出登录", "Log out"),
    "login_title": ("裁判登录", "Referee login"),
    "referee_name": ("裁判姓名", "Referee"),
    "password": ("密码", "Password"),
    "not_logged_in": ("未登录", "not logged in"),
    "logged_in": ("已登录: {name}", "logged in: {name}"),
    "login_first": ("请先登录再裁决", "log in before ruling"),
    "login_failed": ("登录失败: {error}", "login failed: {error}"),
    "checking": ("核对中…", "checking…"),
    "ruling_sent": ("裁决已发往 {table}: #{flag} {decision}", "ruling sent to {table}: #{flag} {decision}"),
    "ruling_not_sent": ("裁决未发出 ({table} #{flag}): {error}", "ruling not sent ({table} #{flag}): {error}"),
    "next_table": ("下一桌 (Ctrl+PgDown)", "Next table (Ctrl+PgDown)"),
    "previous_table": ("上一桌 (Ctrl+PgUp)", "Previous table (Ctrl+PgUp)"),
    # card picker of manual entry
    "joker_SJ": ("小王", "SJ"),
    "joker_BJ": ("大王", "BJ"),
    "undo": ("撤销", "Undo"),
    "clear": ("清空", "Clear"),
    "picked": ("已选: {cards}", "picked: {cards}"),
    "third_copy": ("{card} 已选两张（两副牌）", "{card} is picked twice already (two decks)"),
    # guided deck registration
    "guided_title": ("登记牌具", "Register the deck"),
    "guided_ask": ("请放入出牌区:", "Lay in a play area:"),
    "guided_waiting": ("等待放牌（或拿走上一张）", "waiting (lay the card, or take the last one away)"),
    "guided_settling": ("放稳…", "settling…"),
    "guided_captured": ("已采集", "captured"),
    "guided_last": ("上一张: {card}", "last captured: {card}"),
    "guided_done": ("完成，54 张已采集", "done, all 54 captured"),
    "guided_read": ("识别: {card}", "read: {card}"),
    "guided_retake": ("重拍上一张", "Retake the last card"),
}


def tr(key: str, lang: str = "zh", **fmt: object) -> str:
    """The word for ``key`` in ``lang``; unknown keys come back unchanged (never a crash in a view)."""
    pair = STRINGS.get(key) or PENALTY_NAMES.get(key)
    if pair is None:
        offence = OFFENCES.get(key)
        pair = (offence.zh, offence.en) if offence else (key, key)
    text = pair[0] if lang == "zh" else pair[1]
    return text.format(**fmt) if fmt else text
