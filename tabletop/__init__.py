"""What the web table and the replay viewer both draw.

Card faces and their words (``cards``), inline SVG icons (``icons``), events in
plain sentences (``describe``), each ruleset's drawing facts (``layouts``), the
``{% load cards %}`` template tags and the site's shared stylesheet
(``static/tabletop/site.css``). It imports the pure rules only; ``play`` and
``replays`` import it, never the reverse.
"""
