"""Display names of categories and sheet labels in the six supported languages.

Ids never change; only what a player reads does. Mind the Maxi naming trap: Finnish
*talo* is 4+2 (tower), Swedish *hus* is 3+3 (villa), Danish/Norwegian *hus* is 3+2.
"""

from __future__ import annotations

LANGUAGES = ("en", "fi", "sv", "da", "nb", "ru")

_UPPER = {
    "en": ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes"],
    "fi": ["Ykköset", "Kakkoset", "Kolmoset", "Neloset", "Viitoset", "Kuutoset"],
    "sv": ["Ettor", "Tvåor", "Treor", "Fyror", "Femmor", "Sexor"],
    "da": ["Enere", "Toere", "Treere", "Firere", "Femmere", "Seksere"],
    "nb": ["Enere", "Toere", "Treere", "Firere", "Femmere", "Seksere"],
    "ru": ["Единицы", "Двойки", "Тройки", "Четвёрки", "Пятёрки", "Шестёрки"],
}
_UPPER_IDS = ["ones", "twos", "threes", "fours", "fives", "sixes"]

_PAIR_SUMS = {
    "en": "{n} (pair sums)",
    "fi": "{n} (parisummat)",
    "sv": "{n} (parsummor)",
    "da": "{n} (parsummer)",
    "nb": "{n} (parsummer)",
    "ru": "{n} (суммы пар)",
}

_LOWER: dict[str, dict[str, str]] = {
    "en": {
        "one_pair": "One Pair", "two_pairs": "Two Pairs", "three_pairs": "Three Pairs",
        "three_of_a_kind": "Three of a Kind", "four_of_a_kind": "Four of a Kind",
        "five_of_a_kind": "Five of a Kind", "small_straight": "Small Straight",
        "large_straight": "Large Straight", "full_straight": "Full Straight",
        "full_house": "Full House", "villa": "Villa (3+3)", "tower": "Tower (4+2)",
        "chance": "Chance", "yatzy": "Yatzy", "maxi_yatzy": "Maxi Yatzy", "yahtzee": "Yahtzee",
    },
    "fi": {
        "one_pair": "Yksi pari", "two_pairs": "Kaksi paria", "three_pairs": "Kolme paria",
        "three_of_a_kind": "Kolme samaa", "four_of_a_kind": "Neljä samaa",
        "five_of_a_kind": "Viisi samaa", "small_straight": "Pieni suora",
        "large_straight": "Iso suora", "full_straight": "Täysi suora",
        "full_house": "Täyskäsi", "villa": "Sauna (3+3)", "tower": "Talo (4+2)",
        "chance": "Sattuma", "yatzy": "Yatzy", "maxi_yatzy": "Maxi-Yatzy", "yahtzee": "Yahtzee",
    },
    "sv": {
        "one_pair": "Ett par", "two_pairs": "Två par", "three_pairs": "Tre par",
        "three_of_a_kind": "Tretal", "four_of_a_kind": "Fyrtal", "five_of_a_kind": "Femtal",
        "small_straight": "Liten stege", "large_straight": "Stor stege",
        "full_straight": "Full stege", "full_house": "Kåk", "villa": "Hus (3+3)",
        "tower": "Torn (4+2)", "chance": "Chans", "yatzy": "Yatzy",
        "maxi_yatzy": "Maxiyatzy", "yahtzee": "Yahtzee",
    },
    "da": {
        "one_pair": "Et par", "two_pairs": "To par", "three_pairs": "Tre par",
        "three_of_a_kind": "Tre ens", "four_of_a_kind": "Fire ens", "five_of_a_kind": "Fem ens",
        "small_straight": "Lille straight", "large_straight": "Stor straight",
        "full_straight": "Royal straight", "full_house": "Hus", "villa": "Villa (3+3)",
        "tower": "Tårn (4+2)", "chance": "Chance", "yatzy": "Yatzy",
        "maxi_yatzy": "Maxi Yatzy", "yahtzee": "Yahtzee",
    },
    "nb": {
        "one_pair": "Ett par", "two_pairs": "To par", "three_pairs": "Tre par",
        "three_of_a_kind": "Tre like", "four_of_a_kind": "Fire like", "five_of_a_kind": "Fem like",
        "small_straight": "Liten straight", "large_straight": "Stor straight",
        "full_straight": "Full straight", "full_house": "Hus", "villa": "Villa (3+3)",
        "tower": "Tårn (4+2)", "chance": "Sjanse", "yatzy": "Yatzy",
        "maxi_yatzy": "Maxi Yatzy", "yahtzee": "Yahtzee",
    },
    "ru": {
        "one_pair": "1 пара", "two_pairs": "2 пары", "three_pairs": "3 пары",
        "three_of_a_kind": "Три одинаковых", "four_of_a_kind": "Четыре одинаковых",
        "five_of_a_kind": "Пять одинаковых", "small_straight": "Малая строка",
        "large_straight": "Большая строка", "full_straight": "Полная строка",
        "full_house": "Дом", "villa": "Вилла (3+3)", "tower": "Башня (4+2)",
        "chance": "Шанс", "yatzy": "Яцзы", "maxi_yatzy": "Макси-Яцзы", "yahtzee": "Яхтзи",
    },
}

LABELS: dict[str, dict[str, str]] = {
    "en": {"bonus": "Bonus", "total": "Total", "category": "Category", "max": "Max",
           "rule": "Rule", "player": "Player", "yahtzee_bonus": "Yahtzee bonus",
           "upper": "Upper section", "turns": "turns", "dice": "dice"},
    "fi": {"bonus": "Bonus", "total": "Yhteensä", "category": "Sarake", "max": "Maksimi",
           "rule": "Sääntö", "player": "Pelaaja", "yahtzee_bonus": "Yahtzee-bonus",
           "upper": "Yläosa", "turns": "vuoroa", "dice": "noppaa"},
    "sv": {"bonus": "Bonus", "total": "Summa", "category": "Kategori", "max": "Max",
           "rule": "Regel", "player": "Spelare", "yahtzee_bonus": "Yahtzeebonus",
           "upper": "Övre delen", "turns": "omgångar", "dice": "tärningar"},
    "da": {"bonus": "Bonus", "total": "I alt", "category": "Kategori", "max": "Maks",
           "rule": "Regel", "player": "Spiller", "yahtzee_bonus": "Yahtzee-bonus",
           "upper": "Øverste del", "turns": "runder", "dice": "terninger"},
    "nb": {"bonus": "Bonus", "total": "Sum", "category": "Kategori", "max": "Maks",
           "rule": "Regel", "player": "Spiller", "yahtzee_bonus": "Yahtzee-bonus",
           "upper": "Øvre del", "turns": "runder", "dice": "terninger"},
    "ru": {"bonus": "Премия", "total": "Итого", "category": "Комбинация", "max": "Макс.",
           "rule": "Правило", "player": "Игрок", "yahtzee_bonus": "Бонус Яхтзи",
           "upper": "Верхняя часть", "turns": "ходов", "dice": "кубиков"},
}


def check_language(lang: str) -> str:
    """Return ``lang`` if supported, else raise a ValueError listing the supported ones."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def category_name(category_id: str, lang: str = "en") -> str:
    """Display name of a category id in a language."""
    check_language(lang)
    if category_id in _UPPER_IDS:
        return _UPPER[lang][_UPPER_IDS.index(category_id)]
    if category_id.startswith("n") and category_id[1:].isdigit():
        k = int(category_id[1:])
        if k <= 6:
            return _UPPER[lang][k - 1]
        return _PAIR_SUMS[lang].format(n=k)
    return _LOWER[lang][category_id]


def label(key: str, lang: str = "en") -> str:
    """A sheet label (bonus, total, ...) in a language."""
    return LABELS[check_language(lang)][key]
