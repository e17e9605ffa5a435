"""Numbers as a voice says them: ``4/9`` -> "four ninths", ``-0.3715`` -> "minus zero point three
seven one five", ``5.52e-06`` -> "five point five two times ten to the minus six".

Why here and not left to the voice: each voice reads digits its own way (espeak says "0.3715" as
"zero point three thousand seven hundred fifteen", piper reads "4/9" as "four slash nine"), and
a caption's number is read as written, digit by digit after the point, the way a teacher would.

>>> number_words("8/3")
['eight', 'thirds']
>>> number_words("12")
['twelve']
>>> number_words("abc") is None
True

A printed value is said as its number: trailing zeros after the point, and PyTorch's bare point
(``tensor(12.)``), are not read out.

>>> number_words("1.0000"), number_words("tensor(12.)"), number_words("0.5000")
(['one'], ['tensor', 'twelve'], ['zero', 'point', 'five'])
"""

from __future__ import annotations

import re

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
        "sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
SCALES = ((10**9, "billion"), (10**6, "million"), (1000, "thousand"), (100, "hundred"))
ORDINALS = {1: "first", 2: "half", 3: "third", 4: "quarter", 5: "fifth", 6: "sixth", 7: "seventh", 8: "eighth",
            9: "ninth", 10: "tenth", 11: "eleventh", 12: "twelfth", 13: "thirteenth", 14: "fourteenth",
            15: "fifteenth", 16: "sixteenth", 17: "seventeenth", 18: "eighteenth", 19: "nineteenth",
            20: "twentieth", 100: "hundredth", 1000: "thousandth"}
"""Denominators said as a part ("four ninths"); any other is "over" ("five over sixty-four")."""

_PLAIN = r"\d+(?:,\d{3})*"
NUMBER = re.compile(rf"^(?P<sign>[-−+]?)(?P<int>{_PLAIN})?(?:\.(?P<frac>\d*))?(?:[eE](?P<exp>[-+]?\d+))?$")
FRACTION = re.compile(r"^(?P<sign>[-−]?)(?P<num>\d+)/(?P<den>\d+)$")
TENSOR = re.compile(r"^tensor\((?P<inner>[^()]*)\)$")


def cardinal(n: int) -> list[str]:
    """A whole number from 0 in words; past the billions, digit by digit."""
    if n < 20:
        return [ONES[n]]
    if n < 100:
        return [TENS[n // 10]] + ([ONES[n % 10]] if n % 10 else [])
    if n >= 10**12:
        return digits(str(n))
    for size, word in SCALES:
        if n >= size:
            rest = n % size
            return cardinal(n // size) + [word] + (cardinal(rest) if rest else [])
    raise AssertionError(n)  # pragma: no cover - every n >= 100 has a scale


def digits(text: str) -> list[str]:
    """Each digit of ``text`` as a word ("3715" -> three seven one five)."""
    return [ONES[int(c)] for c in text]


def _fraction(num: int, den: int) -> list[str]:
    if den == 0 or den not in ORDINALS or den == 1:
        return cardinal(num) + ["over"] + cardinal(den)
    part = ORDINALS[den]
    if num != 1:
        part = "halves" if den == 2 else part + "s"
    return cardinal(num) + [part]


def number_words(token: str) -> list[str] | None:
    """``token`` (a whole written number: integer, decimal, fraction, scientific or PyTorch's
    ``tensor(2.6667)``) in words, or None when it is not a number."""
    if (m := TENSOR.match(token)) is not None:
        inner = number_words(m["inner"].strip())
        return None if inner is None else ["tensor"] + inner
    sign: list[str]
    if (m := FRACTION.match(token)) is not None:
        sign = ["minus"] if m["sign"] else []
        return sign + _fraction(int(m["num"]), int(m["den"]))
    m = NUMBER.match(token)
    if m is None or (m["int"] is None and m["frac"] is None):
        return None
    sign = ["minus"] if m["sign"] in ("-", "−") else []
    if m["int"] is None and not m["frac"]:
        return None  # a lone point
    whole = cardinal(int(m["int"].replace(",", ""))) if m["int"] is not None else ["zero"]
    frac = (m["frac"] or "").rstrip("0")  # 1.0000 and 1. are said "one"
    out = sign + whole + (["point"] + digits(frac) if frac else [])
    if m["exp"] is not None:
        exp = int(m["exp"])
        out += ["times", "ten", "to", "the"] + (["minus"] if exp < 0 else []) + cardinal(abs(exp))
    return out
