"""The evidence rules: how a row's claims and the checks that meet it become a verdict, and the
latest verdicts of runs per anchor. Pure, no Django: the evidence layer above and the register
pages' pure filter read them."""
