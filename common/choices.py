"""The models' TextChoices, built from the vocabulary's enums so the two never disagree: a
choice's value is the enum's value, its label the enum's label."""

from __future__ import annotations

from enum import StrEnum

from django.db import models

from language import vocabulary as vocab


def text_choices(enum: type[StrEnum]) -> type[models.TextChoices]:
    return models.TextChoices(enum.__name__, [(member.name, (member.value, member.label)) for member in enum])


Revision = text_choices(vocab.Revision)
Host = text_choices(vocab.Host)
SupportState = text_choices(vocab.SupportState)
HostState = text_choices(vocab.HostState)
Effort = text_choices(vocab.Effort)
Risk = text_choices(vocab.Risk)
LabelKind = text_choices(vocab.LabelKind)
ProbeVerdict = text_choices(vocab.ProbeVerdict)
RunStatus = text_choices(vocab.RunStatus)
Transport = text_choices(vocab.Transport)
