"""Exceptions of the rules core, one class per kind of failure.

Every class is a ``ValueError`` so callers that only care about "bad input" can catch one thing,
while the referee tells malformed input (a card code nobody can read) apart from a legal-looking
input that breaks a rule (a pattern that does not exist, a play that does not beat the table).

    RulesError (ValueError)
    ├── InvalidCardError      a token is not a card code                      (R-CARD-1)
    ├── DuplicateCardError    more than two copies of one card in a set      (R-CARD-1)
    ├── InvalidLevelError     a level is not a rank 2..A                      (R-LVL-1)
    ├── IllegalPatternError   the cards form no legal pattern                 (R-PAT)
    ├── DeclarationError      a declared reading names no pattern or rank     (R-WILD-3)
    └── DoesNotBeatError      a legal pattern that does not beat the trick    (R-CMP)
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error raised by :mod:`referee_station.rules`."""


class InvalidCardError(RulesError):
    """A token is not a card code (R-CARD-1); the message names the token."""


class DuplicateCardError(RulesError):
    """A set of cards holds a third copy of a card; two decks have only two (R-CARD-1)."""


class InvalidLevelError(RulesError):
    """A level is not one of the ranks 2..A (R-LVL-1)."""


class IllegalPatternError(RulesError):
    """The cards form none of the patterns R-PAT-1..10."""


class DeclarationError(RulesError):
    """A declared reading (EVENTS.md ``as``) whose kind or key is not a pattern or rank (R-WILD-3)."""


class DoesNotBeatError(RulesError):
    """A legal pattern that does not beat the last play of the trick (R-CMP)."""
