"""The differential campaign as pytest tests: `EMBER_PROFILE=campaign pytest -n auto fuzz/`.

Under the default `ci` profile each property runs a few derandomised examples (the
README's test command stays short); `campaign` runs thousands. A failure is saved to the
findings store (`$EMBER_FINDINGS`, default ./findings) before the test reports it.
"""

from __future__ import annotations

from fuzz.campaign import Campaign, CampaignConfig

#: split none vs subgraph / function / two-level at -j1/-j2 (behaviour + symdiff), bytes across
#: -j, and -O0 vs -O2 behaviour, on call-graph programs
test_callgraph_programs_split_equals_unsplit = Campaign(
    CampaignConfig(strategy="callgraph"), name="fuzz/test_campaign.py::callgraph"
).hypothesis_test()

#: the same properties on modules exercising every linkage and symbol kind
test_linkage_modules_split_equals_unsplit = Campaign(
    CampaignConfig(strategy="linkage"), name="fuzz/test_campaign.py::linkage"
).hypothesis_test()

#: Ember programs: the reference interpreter == --split none at -O0..-O3 == every split mode and -j
test_ember_programs_interpreter_equals_compiled = Campaign(
    CampaignConfig(strategy="ember"), name="fuzz/test_campaign.py::ember"
).hypothesis_test()
